package io.worldflow.runtime.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.ContextualDeserializer;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.worldflow.PayloadKeyException;
import io.worldflow.Secret;
import io.worldflow.runtime.PayloadKeys;
import io.worldflow.runtime.internal.PayloadCipher.Kind;

import java.io.IOException;
import java.util.Iterator;
import java.util.Map;

/**
 * How a payload holds a {@link Secret}: its value's JSON sealed with the payload keys ({@link Kind#SECRET}), as a
 * JSON string in the secret's place, whatever else of the payload is in clear. Reading opens it back into the declared
 * type; a plain value in a secret's place (a value typed into a form, or written by hand) is read as the secret's value.
 * Without keys a secret is refused, never written in clear.
 */
public final class SecretValues extends SimpleModule {

    /** The associated data of a secret's value: every secret is sealed alike, whatever its type. */
    private static final String TYPE = Secret.class.getName();

    @SuppressWarnings({"unchecked", "rawtypes"})
    public SecretValues(PayloadCipher cipher) {
        super("worldflow-secrets");
        addSerializer((Class) Secret.class, new Writer(cipher));
        addDeserializer((Class) Secret.class, new Reader(cipher, null));
    }

    /** Whether a stored payload's JSON (in clear) may hold a sealed secret: a cheap look before a walk of its tree. */
    public static boolean mayHoldSecrets(String json) {
        return json != null && (json.contains("\\u001bwf:sec:") || json.contains("\\u001Bwf:sec:"));
    }

    /**
     * {@code tree} with each sealed secret in it replaced: by {@link Secret#MASK}, or with {@code cipher} not null, by
     * its value opened.
     */
    public static JsonNode reveal(JsonNode tree, PayloadCipher cipher, ObjectMapper mapper, String what)
            throws IOException {
        if (tree.isTextual() && tree.textValue().startsWith(Kind.SECRET.textPrefix())) {
            return cipher == null
                    ? TextNode.valueOf(Secret.MASK)
                    : mapper.readTree(cipher.open(literal(tree.textValue()), TYPE, what));
        }
        if (tree.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = tree.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                e.setValue(reveal(e.getValue(), cipher, mapper, what));
            }
        } else if (tree.isArray()) {
            for (int i = 0; i < tree.size(); i++) {
                ((com.fasterxml.jackson.databind.node.ArrayNode) tree)
                        .set(i, reveal(tree.get(i), cipher, mapper, what));
            }
        }
        return tree;
    }

    /** A sealed secret as the JSON string literal the cipher made, from the text a parser read. */
    private static String literal(String text) {
        return "\"\\u001b" + text.substring(1) + "\"";
    }

    private static final class Writer extends StdSerializer<Secret<?>> {

        private final PayloadCipher cipher;

        @SuppressWarnings({"unchecked", "rawtypes"})
        Writer(PayloadCipher cipher) {
            super((Class) Secret.class);
            this.cipher = cipher;
        }

        @Override
        public void serialize(Secret<?> secret, JsonGenerator gen, SerializerProvider provider) throws IOException {
            if (cipher == null) {
                throw JsonMappingException.from(
                        provider,
                        "a Secret is never stored in clear, and no payload keys are configured (" + PayloadKeys.KEYS
                                + ")");
            }
            ObjectCodec codec = gen.getCodec();
            String json = codec instanceof ObjectMapper m
                    ? m.writeValueAsString(secret.value())
                    : new ObjectMapper().writeValueAsString(secret.value());
            gen.writeRawValue(cipher.seal(json, TYPE));
        }
    }

    private static final class Reader extends StdDeserializer<Secret<?>> implements ContextualDeserializer {

        private final PayloadCipher cipher;
        /** The secret's declared value type; unknown (any JSON value) until made contextual. */
        private final JavaType content;

        Reader(PayloadCipher cipher, JavaType content) {
            super(Secret.class);
            this.cipher = cipher;
            this.content = content;
        }

        @Override
        public JsonDeserializer<?> createContextual(DeserializationContext ctxt, BeanProperty property) {
            JavaType type = ctxt.getContextualType() != null
                    ? ctxt.getContextualType()
                    : property == null ? null : property.getType();
            JavaType value = type == null ? null : type.containedType(0);
            return new Reader(cipher, value == null ? ctxt.constructType(Object.class) : value);
        }

        @Override
        public Secret<?> deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JavaType type = content == null ? ctxt.constructType(Object.class) : content;
            if (p.currentToken() == JsonToken.VALUE_STRING && p.getText().startsWith(Kind.SECRET.textPrefix())) {
                String sealed = literal(p.getText());
                if (cipher == null) {
                    String id = PayloadCipher.keyId(sealed);
                    throw new PayloadKeyException(
                            "a secret value is encrypted under key '" + id + "', and no payload keys are configured ("
                                    + PayloadKeys.KEYS + ")",
                            id);
                }
                String json = cipher.open(sealed, TYPE, "a secret value");
                try (JsonParser inner = p.getCodec().getFactory().createParser(json)) {
                    inner.setCodec(p.getCodec());
                    inner.nextToken();
                    return Secret.of(ctxt.readValue(inner, type));
                }
            }
            return Secret.of(ctxt.readValue(p, type));
        }
    }
}
