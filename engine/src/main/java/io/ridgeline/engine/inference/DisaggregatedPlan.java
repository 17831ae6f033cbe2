package io.ridgeline.engine.inference;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;

import java.util.ArrayList;
import java.util.List;

/**
 * Disaggregated serving (DistServe, Zhong et al. OSDI'24; Splitwise, Patel et al. ISCA'24): prompts are prefilled on
 * one pool of replicas and decoded on another, the KV cache moving between them. The prefill:decode split is
 * {@code prefillReplicas x prefill.gpusPerReplica() : decodeReplicas x decode.gpusPerReplica()} GPUs; each pool has
 * its own parallel layout (typically less TP for prefill, more for decode). The sweep layer can turn
 * {@code prefillReplicas} / {@code decodeReplicas} into an axis.
 *
 * @param prefill         plan of one prefill replica (its dp is ignored: replicas are counted here)
 * @param prefillReplicas replicas in the prefill pool
 * @param decode          plan of one decode replica
 * @param decodeReplicas  replicas in the decode pool
 */
public record DisaggregatedPlan(InferencePlan prefill, int prefillReplicas, InferencePlan decode, int decodeReplicas) {

    public DisaggregatedPlan {
        List<InputError> errors = new ArrayList<>();
        if (prefill == null || decode == null) {
            errors.add(InputError.of("disaggregated plan", prefill == null ? "prefill" : "decode", "a plan", null));
        }
        if (prefillReplicas < 1) {
            errors.add(InputError.of("disaggregated plan", "prefill_replicas", "an integer >= 1",
                    Integer.toString(prefillReplicas)));
        }
        if (decodeReplicas < 1) {
            errors.add(InputError.of("disaggregated plan", "decode_replicas", "an integer >= 1",
                    Integer.toString(decodeReplicas)));
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
    }

    public int prefillGpus() {
        return prefillReplicas * prefill.gpusPerReplica();
    }

    public int decodeGpus() {
        return decodeReplicas * decode.gpusPerReplica();
    }

    public int gpus() {
        return prefillGpus() + decodeGpus();
    }
}
