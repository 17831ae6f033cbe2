package io.ridgeline.engine.network;

/** Traffic patterns a topology is asked about. Ring-class patterns talk to neighbours; all-to-all to everyone. */
public enum CollectivePattern {
    ALL_REDUCE, REDUCE_SCATTER, ALL_GATHER, ALL_TO_ALL, SEND_RECV;

    /** Ring/tree collectives whose traffic goes to (few) neighbours. */
    public boolean neighbourTraffic() {
        return this != ALL_TO_ALL;
    }
}
