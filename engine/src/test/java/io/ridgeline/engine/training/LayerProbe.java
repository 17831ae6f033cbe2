package io.ridgeline.engine.training;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.network.CollectiveModel;
import io.ridgeline.engine.network.Group;
import io.ridgeline.engine.network.Placement;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.ops.MemoryBoundOp;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.validation.CaseMapper;
import io.ridgeline.engine.workload.ModelSpec;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** Per-layer forward/backward pieces of a case row (micro-batch as stated, else 1): a diagnostic, not a test. */
public final class LayerProbe {
    private LayerProbe() {
    }

    public static void main(String[] args) {
        HardwareCatalog hw = HardwareCatalog.bundled();
        CaseMapper mapper = new CaseMapper(hw);
        List<String> ids = List.of(args).subList(1, args.length);
        for (CsvTable.Row r : CsvTable.read(Path.of(args[0])).rows()) {
            if (!ids.contains(r.string("case_id"))) {
                continue;
            }
            ModelSpec model = mapper.model(r);
            int seq = (int) r.integer("seq_len");
            SystemSpec system = mapper.system(r);
            TrainingPlan plan = mapper.trainingPlan(r, r.isEmpty("micro_batch") ? 1 : (int) r.integer("micro_batch"));
            GemmModel gemm = new GemmModel(system.chip());
            MemoryBoundOp mem = new MemoryBoundOp(system.chip());
            CollectiveModel coll = new CollectiveModel(system, hw.curve(system.chip()), null);
            int domain = system.scaleUpDomain();
            Group tp = Placement.group(plan.tp(), 1, domain);
            Group cp = Placement.group(plan.cp(), plan.tp(), domain);
            int epStride = plan.software().expertTensorParallel() ? plan.tp() * plan.cp() : 1;
            Group ep = Placement.group(plan.ep(), epStride, domain);
            LayerShape s = LayerShape.of(model, seq, plan, tp, cp, ep, system.chip().supports(Precision.FP4));
            AttentionTime at = new AttentionTime(gemm, mem);
            ExpertTime ex = new ExpertTime(gemm, mem, coll);
            LayerTime lt = new LayerTime(gemm, mem, coll);
            Precision p = plan.precision();
            Cost f = lt.forward(s);
            Cost b = lt.backward(s, 0, false);
            System.out.printf(Locale.ROOT, "%s %s tokens %.0f%n  forward  gemm %.3f ms (attn core %.3f) mem %.3f tp %.3f"
                            + " cp %.3f ep %.3f kernels %.0f%n  backward gemm %.3f ms (attn core %.3f) mem %.3f tp %.3f cp %.3f"
                            + " ep %.3f%n",
                    r.string("case_id"), plan, s.tokens(), f.gemmSeconds() * 1e3, at.gemmForward(s) * 1e3,
                    f.memorySeconds() * 1e3, f.tpSeconds() * 1e3, f.cpSeconds() * 1e3, f.epSeconds() * 1e3,
                    f.kernels(), b.gemmSeconds() * 1e3, at.gemmBackward(s) * 1e3, b.memorySeconds() * 1e3,
                    b.tpSeconds() * 1e3, b.cpSeconds() * 1e3, b.epSeconds() * 1e3);
            if (model.moe() != null) {
                System.out.printf(Locale.ROOT, "  experts fwd gemm %.3f ms, moe mem %.3f, exchange %.3f, tokens/expert %.0f%n",
                        ex.gemmForward(s, p) * 1e3, ex.memory(s) * 1e3, ex.exchange(s) * 1e3,
                        ExpertTime.tokensPerLocalExpert(s));
            }
        }
    }
}
