package dev.mcpfusion.maven;

import dev.mcpfusion.maven.ApiModel.Constraints;
import dev.mcpfusion.maven.ApiModel.JType;
import dev.mcpfusion.maven.ApiModel.JType.Kind;
import io.swagger.v3.oas.models.media.Schema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * A schema's validation keywords as the jakarta constraints the fusion processor turns back into
 * input-schema keywords and generated checks: {@code required} → {@code @NotNull},
 * {@code minLength}/{@code maxLength}/{@code minItems}/{@code maxItems} → {@code @Size},
 * {@code pattern} and a non-identifier {@code enum} → {@code @Pattern}, {@code format: email} →
 * {@code @Email}, {@code minimum}/{@code maximum} (exclusive too) → {@code @Min}/{@code @Max} or
 * {@code @DecimalMin}/{@code @DecimalMax}.
 */
final class SchemaConstraints {
  private SchemaConstraints() {}

  static Constraints of(Schema<?> s, JType t, boolean required) {
    List<String> out = new ArrayList<>();
    if (required) {
      out.add("@NotNull");
    }
    if (s.get$ref() != null) {
      return new Constraints(List.copyOf(out));
    }
    switch (t.kind()) {
      case STRING -> {
        size(out, s.getMinLength(), s.getMaxLength());
        if (s.getPattern() != null) {
          out.add("@Pattern(regexp = " + JavaText.literal(s.getPattern()) + ")");
        } else if (s.getEnum() != null && !s.getEnum().isEmpty()) {
          List<String> alternatives = s.getEnum().stream().filter(v -> v != null)
              .map(v -> quote(v.toString())).toList();
          out.add("@Pattern(regexp = " + JavaText.literal(String.join("|", alternatives)) + ")");
        }
        if ("email".equals(s.getFormat())) {
          out.add("@Email");
        }
      }
      case INTEGER, LONG -> {
        BigDecimal min = bound(s.getMinimum(), s.getExclusiveMinimum(), s.getExclusiveMinimumValue(), 1);
        BigDecimal max = bound(s.getMaximum(), s.getExclusiveMaximum(), s.getExclusiveMaximumValue(), -1);
        if (min != null) {
          out.add("@Min(" + min.toBigInteger() + (t.kind() == Kind.LONG ? "L" : "") + ")");
        }
        if (max != null) {
          out.add("@Max(" + max.toBigInteger() + (t.kind() == Kind.LONG ? "L" : "") + ")");
        }
      }
      case DOUBLE -> {
        decimal(out, "@DecimalMin", s.getMinimum(), s.getExclusiveMinimum(), s.getExclusiveMinimumValue());
        decimal(out, "@DecimalMax", s.getMaximum(), s.getExclusiveMaximum(), s.getExclusiveMaximumValue());
      }
      case LIST -> size(out, s.getMinItems(), s.getMaxItems());
      default -> { }
    }
    return new Constraints(List.copyOf(out));
  }

  /** {@code text} as a regular expression matching it alone, in the syntax Java and ECMA-262 share. */
  static String quote(String text) {
    StringBuilder out = new StringBuilder();
    for (char c : text.toCharArray()) {
      if ("\\^$.|?*+()[]{}/".indexOf(c) >= 0) {
        out.append('\\');
      }
      out.append(c);
    }
    return out.toString();
  }

  private static void size(List<String> out, Integer min, Integer max) {
    if (min != null && max != null) {
      out.add("@Size(min = " + min + ", max = " + max + ")");
    } else if (min != null) {
      out.add("@Size(min = " + min + ")");
    } else if (max != null) {
      out.add("@Size(max = " + max + ")");
    }
  }

  /**
   * An integer bound, inclusive: a 3.0 {@code exclusiveMinimum: true} beside {@code minimum}, or a
   * 3.1 numeric {@code exclusiveMinimum}, moves it by one ({@code step}).
   */
  private static BigDecimal bound(BigDecimal value, Boolean exclusive, BigDecimal exclusiveValue, int step) {
    if (exclusiveValue != null) {
      return integral(exclusiveValue, step, true);
    }
    if (value == null) {
      return null;
    }
    return integral(value, step, Boolean.TRUE.equals(exclusive));
  }

  private static BigDecimal integral(BigDecimal v, int step, boolean exclusive) {
    BigDecimal rounded = step > 0 ? v.setScale(0, java.math.RoundingMode.CEILING)
        : v.setScale(0, java.math.RoundingMode.FLOOR);
    return exclusive && rounded.compareTo(v) == 0 ? rounded.add(BigDecimal.valueOf(step)) : rounded;
  }

  private static void decimal(List<String> out, String annotation, BigDecimal value, Boolean exclusive,
      BigDecimal exclusiveValue) {
    BigDecimal v = exclusiveValue != null ? exclusiveValue : value;
    if (v == null) {
      return;
    }
    boolean inclusive = exclusiveValue == null && !Boolean.TRUE.equals(exclusive);
    out.add(annotation + "(" + (inclusive ? JavaText.literal(v.toPlainString())
        : "value = " + JavaText.literal(v.toPlainString()) + ", inclusive = false") + ")");
  }
}
