package io.ridgeline.engine.spec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Spec files decode as strict UTF-8: bad bytes are reported with line and byte offset, never replaced. */
class Utf8TextTest {
    @TempDir
    Path dir;

    @Test
    void aLatin1ByteIsRejectedWithLineAndByteOffset() throws Exception {
        Path f = dir.resolve("latin1.yaml");
        // "name: caf\u00e9" in ISO-8859-1: 0xE9 follows "# sweep\n" (8 bytes) and "name: caf" (9): offset 17, line 2.
        Files.write(f, "# sweep\nname: caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> Utf8Text.read(f, "sweep file"));
        assertEquals(f + ":2: (encoding): expected UTF-8 text (save the file as UTF-8), found byte 0xE9 at byte "
                + "offset 17 that is not UTF-8", e.getMessage());
    }

    @Test
    void sweepFilesAreReadStrictly() throws Exception {
        Path f = dir.resolve("sweep.yaml");
        Files.write(f, "name: t\ndescription: r\u00e9sum\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> io.ridgeline.engine.sweep.SweepLoader.load(f));
        assertEquals(f + ":2: (encoding): expected UTF-8 text (save the file as UTF-8), found byte 0xE9 at byte "
                + "offset 22 that is not UTF-8", e.getMessage());
    }

    @Test
    void aTruncatedSequenceAtTheEndIsRejected() {
        byte[] bytes = {'a', ':', ' ', (byte) 0xE2, (byte) 0x82};
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> Utf8Text.decode("t.yaml", bytes));
        assertEquals("t.yaml:1: (encoding): expected UTF-8 text (save the file as UTF-8), found byte 0xE2 at byte "
                + "offset 3 that is not UTF-8", e.getMessage());
    }

    @Test
    void validUtf8DecodesAndALeadingByteOrderMarkIsDropped() {
        byte[] text = "\uFEFFname: caf\u00e9 \u20ac\n".getBytes(StandardCharsets.UTF_8);
        assertEquals("name: caf\u00e9 \u20ac\n", Utf8Text.decode("t.yaml", text));
    }

    @Test
    void aMissingFileSaysWhatWasExpected() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> Utf8Text.read(dir.resolve("none.csv"), "CSV file"));
        assertEquals(dir.resolve("none.csv") + ": (file): expected an existing CSV file, found no such file",
                e.getMessage());
    }
}
