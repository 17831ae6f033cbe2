package io.ridgeline.engine.spec;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Strict UTF-8 for spec files (sweeps, case tables): a byte sequence that is not UTF-8 is an input error with the
 * file, line and byte offset, never a silently substituted U+FFFD that later reads as a wrong name or number.
 */
public final class Utf8Text {
    private static final char BOM = '\uFEFF';

    private Utf8Text() {
    }

    /** Reads and decodes a file; a missing or unreadable file is an input error naming {@code what} it should be. */
    public static String read(Path file, String what) {
        return decode(file.toString(), readBytes(file, what));
    }

    /** The raw bytes of a spec file (for hashes), with the same errors as {@link #read}. */
    public static byte[] readBytes(Path file, String what) {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new InvalidInputException(InputError.of(file.toString(), "(file)", "an existing " + what,
                    "no such file"));
        } catch (IOException e) {
            throw new InvalidInputException(InputError.of(file.toString(), "(file)", "a readable " + what,
                    e.toString()));
        }
    }

    /**
     * Decodes {@code bytes} as UTF-8, reporting (not replacing) malformed or unmappable input; a leading byte-order
     * mark is dropped.
     *
     * @throws InvalidInputException at the first bad byte: its line, value and offset from the start of the file
     */
    public static String decode(String source, byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length + 1);
        CoderResult r = decoder.decode(in, out, true);
        if (!r.isError()) {
            r = decoder.flush(out);
        }
        if (r.isError()) {
            int offset = in.position();
            int line = 1;
            for (int i = 0; i < offset; i++) {
                if (bytes[i] == '\n') {
                    line++;
                }
            }
            throw new InvalidInputException(new InputError(source, line, 0, "(encoding)",
                    "UTF-8 text (save the file as UTF-8)", String.format(Locale.ROOT,
                    "byte 0x%02X at byte offset %d that is not UTF-8", bytes[offset] & 0xff, offset)));
        }
        out.flip();
        if (out.hasRemaining() && out.get(0) == BOM) {
            out.position(1);
        }
        return out.toString();
    }
}
