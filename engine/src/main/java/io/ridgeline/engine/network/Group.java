package io.ridgeline.engine.network;

/**
 * A communicator as placed on the cluster: {@code size} ranks, {@code perDomain} of them inside each scale-up domain
 * (NVSwitch node / NVL72 rack), the rest spread over {@code size / perDomain} domains; consecutive ranks are
 * {@code stride} GPUs apart in the cluster's rank order (what a scale-out topology needs to find shared links).
 */
public record Group(int size, int perDomain, int stride) {
    public static final Group SINGLE = new Group(1, 1, 1);

    public Group {
        if (size < 1 || perDomain < 1 || perDomain > size || size % perDomain != 0 || stride < 1) {
            throw new IllegalArgumentException("invalid group: size=" + size + " perDomain=" + perDomain
                    + " stride=" + stride);
        }
    }

    /** A group of contiguous ranks. */
    public Group(int size, int perDomain) {
        this(size, perDomain, 1);
    }

    /** GPU distance between consecutive ranks of the inter-domain part (one rank per domain). */
    public int interDomainStride() {
        return stride * perDomain;
    }

    public int domains() {
        return size / perDomain;
    }

    public boolean crossesDomains() {
        return perDomain < size;
    }
}
