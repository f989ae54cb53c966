package dev.mcpfusion.core.server;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.std.StdSerializer;

/**
 * The JSON settings every transport and the SDK server share: decimals read as
 * {@code BigDecimal} (no silent rounding of an agent's {@code 0.1}), duplicate keys and trailing
 * tokens rejected, non-finite numbers ({@code NaN}, {@code Infinity}) rejected when read and when
 * written.
 */
public final class McpJson {
  private McpJson() {}

  /** A new Jackson mapper with the framework's settings. */
  public static JsonMapper newJacksonMapper() {
    SimpleModule finiteNumbers = new SimpleModule("mcpfusion-finite-numbers");
    finiteNumbers.addSerializer(Double.class, new FiniteDouble(Double.class));
    finiteNumbers.addSerializer(Double.TYPE, new FiniteDouble(Double.TYPE));
    finiteNumbers.addSerializer(Float.class, new FiniteFloat(Float.class));
    finiteNumbers.addSerializer(Float.TYPE, new FiniteFloat(Float.TYPE));
    return JsonMapper.builder()
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
        .addModule(finiteNumbers)
        .build();
  }

  /** A new SDK mapper over {@link #newJacksonMapper()}. */
  public static McpJsonMapper newMapper() {
    return new JacksonMcpJsonMapper(newJacksonMapper());
  }

  private static final class FiniteDouble extends StdSerializer<Double> {
    FiniteDouble(Class<?> type) {
      super(type);
    }

    @Override
    public void serialize(Double value, JsonGenerator gen, SerializationContext ctxt)
        throws JacksonException {
      if (value.isNaN() || value.isInfinite()) {
        throw DatabindException.from(gen, "A non-finite number cannot be written as JSON");
      }
      gen.writeNumber(value);
    }
  }

  private static final class FiniteFloat extends StdSerializer<Float> {
    FiniteFloat(Class<?> type) {
      super(type);
    }

    @Override
    public void serialize(Float value, JsonGenerator gen, SerializationContext ctxt)
        throws JacksonException {
      if (value.isNaN() || value.isInfinite()) {
        throw DatabindException.from(gen, "A non-finite number cannot be written as JSON");
      }
      gen.writeNumber(value);
    }
  }
}
