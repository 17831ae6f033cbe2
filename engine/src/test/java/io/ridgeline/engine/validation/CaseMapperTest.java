package io.ridgeline.engine.validation;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.software.AttentionKernel;
import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.spec.InvalidInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The case's framework decides what its empty fields mean; nothing is keyed on the chip or the case. */
class CaseMapperTest {
    private final CaseMapper mapper = new CaseMapper(HardwareCatalog.bundled());

    private static CsvTable.Row row(Path dir, String framework, String gpu, String tp, String sp, String zero,
                                    String recompute) throws Exception {
        String header = String.join(",", Validator.COLUMNS) + ",framework";
        String line = "x,training,m,32,4096,32,8,14336,swiglu,128256,8192,,," + gpu + ",64,8,400," + tp + ",1,"
                + (64 / Integer.parseInt(tp)) + ",1,1," + sp + ",1," + zero + ",128,1,bf16," + recompute
                + ",,,,,,,tokens_per_s_per_gpu,1000,src,notes," + framework;
        Path f = dir.resolve("c.csv");
        Files.writeString(f, header + "\n" + line + "\n");
        return CsvTable.read(f).rows().get(0);
    }

    @Test
    void emptyFieldsTakeTheFrameworksBehaviourNotTheChips(@TempDir Path dir) throws Exception {
        TrainingPlan nemo = mapper.trainingPlan(row(dir, "nemo@24.07", "a100-80g", "2", "", "", ""), 1);
        assertTrue(nemo.sp(), "NeMo turns SP on with TP > 1");
        assertEquals(1, nemo.zero(), "distributed optimizer");
        assertEquals(Recompute.AUTO, nemo.recompute());
        assertEquals(AttentionKernel.CUDNN, nemo.software().attention(), "on an A100 too: no era switch");
        TrainingPlan legacy = mapper.trainingPlan(row(dir, "megatron-lm@2021", "h100-sxm", "2", "", "", ""), 1);
        assertFalse(legacy.sp());
        assertEquals(0, legacy.zero());
        assertEquals(AttentionKernel.UNFUSED, legacy.software().attention(), "on an H100 too");
        TrainingPlan stated = mapper.trainingPlan(row(dir, "nemo@24.07", "h100-sxm", "2", "0", "0", "full"), 1);
        assertFalse(stated.sp());
        assertEquals(0, stated.zero());
        assertEquals(Recompute.FULL, stated.recompute());
    }

    @Test
    void aLaterVersionUsesTheNearestCataloguedProfileAndSaysSo(@TempDir Path dir) throws Exception {
        CsvTable.Row r = row(dir, "megatron-bridge@26.02", "b200", "1", "", "", "");
        assertEquals("megatron-bridge@25.11", mapper.stack(r).profile().id());
        assertFalse(mapper.stack(r).exact());
        CsvTable.Row serving = row(dir, "vllm", "b200", "1", "", "", "");
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> mapper.trainingPlan(serving, 1));
        assertTrue(e.getMessage().contains("framework: expected a training stack"), e.getMessage());
    }
}
