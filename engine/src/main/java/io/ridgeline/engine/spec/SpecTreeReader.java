package io.ridgeline.engine.spec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Parses YAML or JSON text into a {@link SpecNode} tree with line and column on every node. */
public final class SpecTreeReader {
    private SpecTreeReader() {
    }

    /**
     * Parses {@code text}; JSON when {@code source} ends in .json, YAML otherwise (YAML is a superset of JSON anyway).
     *
     * @throws InvalidInputException on a syntax error or a duplicated key, with the position the parser reports
     */
    public static SpecNode parse(String source, String text) {
        boolean json = source.toLowerCase(Locale.ROOT).endsWith(".json");
        JsonFactory factory = json
                ? JsonFactory.builder().enable(JsonReadFeature.ALLOW_JAVA_COMMENTS).build()
                : new YAMLFactory();
        List<InputError> errors = new ArrayList<>();
        try (JsonParser p = factory.createParser(text)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                throw new InvalidInputException(new InputError(source, 1, 1, "(document)", "a mapping of sweep settings",
                        "an empty file"));
            }
            SpecNode root = read(p, source, errors);
            if (!errors.isEmpty()) {
                throw new InvalidInputException(errors);
            }
            return root;
        } catch (JsonProcessingException e) {
            throw new InvalidInputException(json ? jsonSyntax(source, e) : YamlSyntax.error(source, text, e));
        } catch (IOException e) {
            throw new InvalidInputException(InputError.of(source, "(file)", "a readable file", e.toString()));
        }
    }

    /** Jackson's JSON parser reports the offending character's position itself. */
    private static InputError jsonSyntax(String source, JsonProcessingException e) {
        JsonLocation loc = e.getLocation();
        int line = loc == null ? 0 : Math.max(loc.getLineNr(), 0);
        int col = loc == null ? 0 : Math.max(loc.getColumnNr(), 0);
        return new InputError(source, line, col, "(syntax)", "valid JSON", YamlSyntax.firstLine(e.getOriginalMessage()));
    }

    private static SpecNode read(JsonParser p, String source, List<InputError> errors) throws IOException {
        JsonLocation loc = p.currentTokenLocation();
        int line = loc.getLineNr();
        int col = loc.getColumnNr();
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT: {
                LinkedHashMap<String, SpecNode> values = new LinkedHashMap<>();
                Map<String, int[]> positions = new HashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    JsonLocation kl = p.currentTokenLocation();
                    p.nextToken();
                    SpecNode value = read(p, source, errors);
                    if (values.containsKey(key)) {
                        errors.add(new InputError(source, kl.getLineNr(), kl.getColumnNr(), key,
                                "each key once (first at line " + positions.get(key)[0] + ")",
                                "a duplicate key '" + key + "'"));
                        continue;
                    }
                    values.put(key, value);
                    positions.put(key, new int[]{kl.getLineNr(), kl.getColumnNr()});
                }
                return new SpecNode.MapNode(line, col, values, positions);
            }
            case START_ARRAY: {
                List<SpecNode> items = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    items.add(read(p, source, errors));
                }
                return new SpecNode.ListNode(line, col, items);
            }
            case VALUE_STRING:
                return new SpecNode.Scalar(line, col, SpecNode.Scalar.Kind.STRING, p.getText());
            case VALUE_NUMBER_INT:
                return new SpecNode.Scalar(line, col, SpecNode.Scalar.Kind.INTEGER, p.getText());
            case VALUE_NUMBER_FLOAT:
                return new SpecNode.Scalar(line, col, SpecNode.Scalar.Kind.DECIMAL, p.getText());
            case VALUE_TRUE:
            case VALUE_FALSE:
                return new SpecNode.Scalar(line, col, SpecNode.Scalar.Kind.BOOLEAN, p.getText());
            case VALUE_NULL:
                return new SpecNode.Scalar(line, col, SpecNode.Scalar.Kind.NULL, "null");
            default:
                throw new IllegalStateException("unexpected token " + t + " at " + source + ":" + line);
        }
    }
}
