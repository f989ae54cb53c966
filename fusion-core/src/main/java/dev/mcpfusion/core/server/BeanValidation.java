package dev.mcpfusion.core.server;

import dev.mcpfusion.core.spi.Args;
import dev.mcpfusion.core.spi.Problems;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.hibernate.validator.HibernateValidator;

/**
 * Step 3's second half: Hibernate Validator, run only for actions whose parameters carry a
 * constraint the generated code cannot check (a custom {@code @Constraint} or {@code @Valid}),
 * with {@link Locale#ROOT} messages. Built-in {@code jakarta.validation.constraints} are skipped:
 * the generated checks already reported them in our own words.
 *
 * <p>The validator factory is created on first use, so a server without such actions never pays
 * for Hibernate Validator's bootstrap.
 */
public final class BeanValidation {
  private static final String BUILT_IN = "jakarta.validation.constraints.";

  private volatile Validator validator;

  /** Adds a problem per violation of {@code arguments} (decoded, context slots {@code null}). */
  public void validate(ExecutableTarget executable, Object[] arguments, Problems problems) {
    Set<ConstraintViolation<Object>> violations = validator().forExecutables()
        .validateParameters(executable.target(), executable.method(), arguments);
    List<Found> found = new ArrayList<>();
    for (ConstraintViolation<Object> violation : violations) {
      String annotation = violation.getConstraintDescriptor().getAnnotation().annotationType().getName();
      if (annotation.startsWith(BUILT_IN)) {
        continue;
      }
      String path = path(violation.getPropertyPath(), executable.slots());
      if (path == null) {
        continue;
      }
      found.add(new Found(path, violation.getMessage(), violation.getInvalidValue()));
    }
    found.sort(Comparator.comparing(Found::path).thenComparing(Found::message));
    for (Found f : found) {
      if (!problems.has(f.path())) {
        problems.add(f.path(), f.message(), f.sent());
      }
    }
  }

  /** The agent-facing path of a violation, or {@code null} when it concerns a context parameter. */
  static String path(Path propertyPath, List<String> slots) {
    String path = null;
    boolean inParameter = false;
    for (Path.Node node : propertyPath) {
      ElementKind kind = node.getKind();
      if (kind == ElementKind.METHOD || kind == ElementKind.CONSTRUCTOR) {
        continue;
      }
      if (kind == ElementKind.CROSS_PARAMETER) {
        return "(arguments)";
      }
      if (kind == ElementKind.PARAMETER) {
        int index = node.as(Path.ParameterNode.class).getParameterIndex();
        String slot = index < slots.size() ? slots.get(index) : node.getName();
        if (slot == null) {
          return null;
        }
        path = slot;
        inParameter = true;
        continue;
      }
      if (!inParameter) {
        continue;
      }
      if (node.isInIterable()) {
        if (node.getIndex() != null) {
          path = Args.index(path, node.getIndex());
        } else if (node.getKey() != null) {
          path = Args.path(path, String.valueOf(node.getKey()));
        }
      }
      if (kind == ElementKind.PROPERTY && node.getName() != null) {
        path = Args.path(path, node.getName());
      }
    }
    if (path == null || path.isEmpty()) {
      return "(arguments)";
    }
    return path;
  }

  private Validator validator() {
    Validator v = validator;
    if (v == null) {
      synchronized (this) {
        v = validator;
        if (v == null) {
          v = Validation.byProvider(HibernateValidator.class)
              .configure()
              .defaultLocale(Locale.ROOT)
              .locales(Locale.ROOT)
              .buildValidatorFactory()
              .getValidator();
          validator = v;
        }
      }
    }
    return v;
  }

  private record Found(String path, String message, Object sent) {}
}
