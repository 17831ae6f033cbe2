package io.ridgeline.engine.network;

/**
 * A communicator as placed on the cluster: {@code size} ranks, {@code perDomain} of them inside each scale-up domain
 * (NVSwitch node / NVL72 rack), the rest spread over {@code size / perDomain} domains.
 */
public record Group(int size, int perDomain) {
    public static final Group SINGLE = new Group(1, 1);

    public Group {
        if (size < 1 || perDomain < 1 || perDomain > size || size % perDomain != 0) {
            throw new IllegalArgumentException("invalid group: size=" + size + " perDomain=" + perDomain);
        }
    }

    public int domains() {
        return size / perDomain;
    }

    public boolean crossesDomains() {
        return perDomain < size;
    }
}
