package dev.mcpfusion.samples.conformance;

import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.LegacyEnumNames;
import jakarta.validation.constraints.Size;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.StringJoiner;

/** The elicitation forms of the conformance suite's SEP-1034 and SEP-1330 scenarios. */
public final class Forms {
  private Forms() {}

  /** A status with untitled options (sent as a plain {@code enum}). */
  public enum UserStatus { active, inactive, pending }

  /** SEP-1034: every primitive type with a default (given by the instance passed to {@code elicitWithDefaults}). */
  public record Profile(
      @Describe("User name") String name,
      @Describe("User age") Integer age,
      @Describe("User score") Double score,
      @Describe("User status") UserStatus status,
      @Describe("Verification status") Boolean verified) {}

  /** Untitled options. */
  public enum Option { option1, option2, option3 }

  /** Titled options: each constant's {@code @Describe} is its title. */
  public enum Choice {
    @Describe("First Option") value1,
    @Describe("Second Option") value2,
    @Describe("Third Option") value3
  }

  /** Titled options sent the legacy way ({@code enumNames}). */
  public enum Legacy {
    @Describe("Option One") opt1,
    @Describe("Option Two") opt2,
    @Describe("Option Three") opt3
  }

  /** SEP-1330: the five enum shapes. */
  public record Choices(
      @Describe("Select one option") Option untitledSingle,
      @Describe("Select one option with titles") Choice titledSingle,
      @LegacyEnumNames @Describe("Select one option (legacy)") Legacy legacyEnum,
      @Size(min = 1, max = 3) @Describe("Select multiple options") List<Option> untitledMulti,
      @Size(min = 1, max = 3) @Describe("Select multiple options with titles") List<Choice> titledMulti) {}

  /** A form's values as compact JSON, for the tools' answers. */
  static String json(Record form) {
    StringJoiner out = new StringJoiner(",", "{", "}");
    for (RecordComponent c : form.getClass().getRecordComponents()) {
      Object value;
      try {
        value = c.getAccessor().invoke(form);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
      if (value != null) {
        out.add("\"" + c.getName() + "\":" + value(value));
      }
    }
    return out.toString();
  }

  private static String value(Object value) {
    if (value instanceof List<?> list) {
      StringJoiner out = new StringJoiner(",", "[", "]");
      list.forEach(v -> out.add(value(v)));
      return out.toString();
    }
    if (value instanceof Number || value instanceof Boolean) {
      return value.toString();
    }
    return "\"" + value.toString().replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
