package io.ridgeline.engine.spec;

/**
 * An enum whose id (in spec files, flags and result columns) is its lower-case name: {@code PRE} is "pre". The one
 * home of the {@code id()} every such enum had written out; the ids are built once per enum type ({@link Names#id}),
 * so asking per row allocates nothing.
 */
public interface LowerCaseId {
    /** The id files and result columns write: the lower-case name. */
    default String id() {
        return Names.id((Enum<?>) this);
    }
}
