package dev.mcpfusion.processor;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.PatternSyntaxException;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;

import dev.mcpfusion.processor.Inputs.Check;
import dev.mcpfusion.processor.Inputs.Constraints;
import dev.mcpfusion.processor.Inputs.In;

/**
 * The built-in {@code jakarta.validation.constraints} on a tool input, read through mirrors into
 * JSON Schema keywords and generated {@code Checks} calls; any other constraint (or
 * {@code @Valid}) leaves the value to Bean Validation at run time.
 */
final class ConstraintReader {
  private static final String JAKARTA = Inputs.JAKARTA;
  private static final List<String> ORDER = List.of("NotNull", "NotBlank", "NotEmpty", "Size", "Min",
      "Max", "DecimalMin", "DecimalMax", "Positive", "PositiveOrZero", "Negative", "NegativeOrZero",
      "Pattern", "Email");

  private final Elements elements;
  private final Reporter reporter;

  ConstraintReader(Elements elements, Reporter reporter) {
    this.elements = elements;
    this.reporter = reporter;
  }

  /** The constraints of one site, read from its annotations, reporting misplaced or bad ones. */
  Constraints read(String name, Element anchor, In in, List<AnnotationMirror> all) {
    Constraints c = new Constraints();
    In v = in.value();
    boolean text = v.kind == In.Kind.SCALAR && v.scalar == Scalar.STRING;
    boolean number = v.kind == In.Kind.SCALAR && v.scalar.isNumber();
    boolean items = v.collection();
    Map<String, AnnotationMirror> builtIn = new HashMap<>();
    for (AnnotationMirror m : all) {
      String qn = Mirrors.name(m);
      if (qn.startsWith(JAKARTA) && ORDER.contains(qn.substring(JAKARTA.length()))) {
        builtIn.put(qn.substring(JAKARTA.length()), m);
      } else if (isConstraint(m)) {
        c.beanValidation = true;
      }
    }
    for (String simple : ORDER) {
      AnnotationMirror m = builtIn.get(simple);
      if (m == null) {
        continue;
      }
      boolean applicable;
      switch (simple) {
        case "NotNull":
          applicable = true;
          c.required = true;
          break;
        case "NotBlank":
          applicable = text;
          c.required = true;
          c.minLength = max(c.minLength, 1);
          c.checks.add(new Check("notBlank", List.of(), null, null));
          break;
        case "NotEmpty":
          applicable = text || items;
          c.required = true;
          if (text) {
            c.minLength = max(c.minLength, 1);
          } else {
            c.minItems = max(c.minItems, 1);
          }
          c.checks.add(new Check("notEmpty", List.of(), null, null));
          break;
        case "Size": {
          applicable = text || items;
          int min = (int) Mirrors.number(elements, m, "min", 0);
          int max = (int) Mirrors.number(elements, m, "max", Integer.MAX_VALUE);
          if (text) {
            c.minLength = min > 0 ? max(c.minLength, min) : c.minLength;
            c.maxLength = max < Integer.MAX_VALUE ? min(c.maxLength, max) : c.maxLength;
          } else {
            c.minItems = min > 0 ? max(c.minItems, min) : c.minItems;
            c.maxItems = max < Integer.MAX_VALUE ? min(c.maxItems, max) : c.maxItems;
          }
          c.checks.add(new Check("size", List.of(min, max), null, null));
          break;
        }
        case "Min":
        case "Max": {
          applicable = number;
          long value = Mirrors.number(elements, m, "value", 0);
          if (simple.equals("Min")) {
            c.minimum = maxDecimal(c.minimum, BigDecimal.valueOf(value));
          } else {
            c.maximum = minDecimal(c.maximum, BigDecimal.valueOf(value));
          }
          c.checks.add(new Check(simple.equals("Min") ? "min" : "max", List.of(value), null, null));
          break;
        }
        case "DecimalMin":
        case "DecimalMax": {
          applicable = number;
          String value = Mirrors.string(elements, m, "value");
          boolean inclusive = Mirrors.bool(elements, m, "inclusive");
          BigDecimal d;
          try {
            d = new BigDecimal(value.trim());
          } catch (NumberFormatException e) {
            reporter.reportOn(Diagnostic.INVALID_CONSTRAINT, anchor, m,
                Mirrors.explicitValue(m, "value"), simple, name, value);
            continue;
          }
          boolean lower = simple.equals("DecimalMin");
          if (lower && inclusive) {
            c.minimum = maxDecimal(c.minimum, d);
          } else if (lower) {
            c.exclusiveMinimum = maxDecimal(c.exclusiveMinimum, d);
          } else if (inclusive) {
            c.maximum = minDecimal(c.maximum, d);
          } else {
            c.exclusiveMaximum = minDecimal(c.exclusiveMaximum, d);
          }
          c.checks.add(new Check(lower ? "decimalMin" : "decimalMax",
              List.of(value.trim(), inclusive), null, null));
          break;
        }
        case "Positive":
          applicable = number;
          c.exclusiveMinimum = maxDecimal(c.exclusiveMinimum, BigDecimal.ZERO);
          c.checks.add(new Check("positive", List.of(), null, null));
          break;
        case "PositiveOrZero":
          applicable = number;
          c.minimum = maxDecimal(c.minimum, BigDecimal.ZERO);
          c.checks.add(new Check("positiveOrZero", List.of(), null, null));
          break;
        case "Negative":
          applicable = number;
          c.exclusiveMaximum = minDecimal(c.exclusiveMaximum, BigDecimal.ZERO);
          c.checks.add(new Check("negative", List.of(), null, null));
          break;
        case "NegativeOrZero":
          applicable = number;
          c.maximum = minDecimal(c.maximum, BigDecimal.ZERO);
          c.checks.add(new Check("negativeOrZero", List.of(), null, null));
          break;
        case "Pattern": {
          applicable = text;
          String regexp = Mirrors.string(elements, m, "regexp");
          List<String> flags = new ArrayList<>();
          for (AnnotationValue f : Mirrors.list(elements, m, "flags")) {
            if (f.getValue() instanceof VariableElement) {
              flags.add(((VariableElement) f.getValue()).getSimpleName().toString());
            }
          }
          try {
            java.util.regex.Pattern.compile(regexp);
          } catch (PatternSyntaxException e) {
            reporter.reportOn(Diagnostic.INVALID_PATTERN, anchor, m,
                Mirrors.explicitValue(m, "regexp"), name, e.getDescription());
            continue;
          }
          String construct = flags.isEmpty() ? PatternPortability.javaOnly(regexp)
              : "flags " + flags;
          if (construct == null) {
            c.pattern = "^(?:" + regexp + ")$";
          } else if (applicable) {
            reporter.report(Diagnostic.PATTERN_NOT_PORTABLE, anchor, name, construct);
          }
          c.checks.add(new Check("pattern", List.of(), regexp, flags));
          break;
        }
        case "Email":
        default:
          applicable = text;
          c.format = "email";
          c.checks.add(new Check("email", List.of(), null, null));
          break;
      }
      if (!applicable) {
        reporter.reportOn(Diagnostic.CONSTRAINT_NOT_APPLICABLE, anchor, m, null, simple, name,
            Views.display(in.mirror));
      }
    }
    return c;
  }

  private static boolean isConstraint(AnnotationMirror m) {
    String qn = Mirrors.name(m);
    return qn.startsWith(JAKARTA) || qn.equals("jakarta.validation.Valid")
        || Mirrors.find(m.getAnnotationType().asElement(), "jakarta.validation.Constraint") != null;
  }

  static boolean containerConstraint(TypeMirror type) {
    List<TypeMirror> inner = new ArrayList<>();
    if (type.getKind() == TypeKind.DECLARED) {
      inner.addAll(((DeclaredType) type).getTypeArguments());
    } else if (type.getKind() == TypeKind.ARRAY) {
      inner.add(((ArrayType) type).getComponentType());
    }
    for (TypeMirror t : inner) {
      for (AnnotationMirror m : t.getAnnotationMirrors()) {
        if (isConstraint(m)) {
          return true;
        }
      }
      if (containerConstraint(t)) {
        return true;
      }
    }
    return false;
  }

  private static Integer max(Integer a, int b) {
    return a == null ? b : Math.max(a, b);
  }

  private static Integer min(Integer a, int b) {
    return a == null ? b : Math.min(a, b);
  }

  private static BigDecimal maxDecimal(BigDecimal a, BigDecimal b) {
    return a == null || b.compareTo(a) > 0 ? b : a;
  }

  private static BigDecimal minDecimal(BigDecimal a, BigDecimal b) {
    return a == null || b.compareTo(a) < 0 ? b : a;
  }
}
