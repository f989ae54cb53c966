package dev.mcpfusion.lock;

import dev.mcpfusion.json.Json;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The drift of one fillable profile input ({@code @Input(profile = "update") Invoice changes}),
 * property by property rather than as one nested type, so that a property becoming fillable is not
 * reported as a type change:
 * <ul>
 *   <li>BREAKING: the profile renamed; a property no longer fillable (unlike a removed top-level
 *       field, which usually means the handler stopped needing it, this takes a capability away:
 *       the agent can no longer set that property of the model, and a create builds it empty);
 *       a required property added or an optional one made required; a property's type changed;
 *       the object's own type keywords changed.
 *   <li>RISKY: a property's value constraints changed.
 *   <li>SAFE: an optional property added; a required property made optional.
 * </ul>
 * Descriptions are compared by {@link Drift} like those of any input (COSMETIC).
 */
final class ProfileDrift {
  /** Where {@link Drift} records one change. */
  interface Sink {
    void add(Severity severity, String what, String before, String after);
  }

  private ProfileDrift() {}

  static void compare(String name, InputField b, InputField a, Sink out) {
    if (!Objects.equals(b.profile(), a.profile())) {
      out.add(Severity.BREAKING, "input profile changed: " + name, quoted(b.profile()),
          quoted(a.profile()));
    }
    Map<String, Object> bo = object(b.schema());
    Map<String, Object> ao = object(a.schema());
    Map<String, Object> bp = properties(bo);
    Map<String, Object> ap = properties(ao);
    List<?> br = required(bo);
    List<?> ar = required(ao);
    TreeSet<String> names = new TreeSet<>(bp.keySet());
    names.addAll(ap.keySet());
    String profile = a.profile() == null ? b.profile() : a.profile();
    for (String p : names) {
      String path = name + "." + p;
      if (!ap.containsKey(p)) {
        out.add(Severity.BREAKING, (br.contains(p) ? "required" : "optional") + " field removed: "
            + path + " (no longer fillable in " + quoted(profile) + ")", null, null);
      } else if (!bp.containsKey(p)) {
        boolean req = ar.contains(p);
        out.add(req ? Severity.BREAKING : Severity.SAFE, (req ? "required" : "optional")
            + " field added: " + path + " (fillable in " + quoted(profile) + ")", null, null);
      } else {
        if (!br.contains(p) && ar.contains(p)) {
          out.add(Severity.BREAKING, "required field added: " + path + " (was optional)", null, null);
        } else if (br.contains(p) && !ar.contains(p)) {
          out.add(Severity.SAFE, "required field removed: " + path + " (now optional)", null, null);
        }
        Object bs = bp.get(p);
        Object as = ap.get(p);
        if (!Canonical.typeOnly(bs).equals(Canonical.typeOnly(as))) {
          out.add(Severity.BREAKING, "input type changed: " + path, Canonical.compact(bs),
              Canonical.compact(as));
        } else if (!bs.equals(as)) {
          out.add(Severity.RISKY, "input constraints changed: " + path, Canonical.compact(bs),
              Canonical.compact(as));
        }
      }
    }
    Map<String, Object> bRest = new TreeMap<>(bo);
    Map<String, Object> aRest = new TreeMap<>(ao);
    for (Map<String, Object> rest : List.of(bRest, aRest)) {
      rest.remove("properties");
      rest.remove("required");
    }
    if (!bRest.equals(aRest)) {
      out.add(Severity.BREAKING, "input type changed: " + name, Canonical.compact(bRest),
          Canonical.compact(aRest));
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Object schema) {
    return schema instanceof Map ? (Map<String, Object>) schema : Map.of();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> properties(Map<String, Object> schema) {
    Object p = schema.get("properties");
    return p instanceof Map ? (Map<String, Object>) p : Map.of();
  }

  private static List<?> required(Map<String, Object> schema) {
    Object r = schema.get("required");
    return r instanceof List ? (List<?>) r : List.of();
  }

  private static String quoted(String text) {
    return text == null ? "none" : Json.write(text);
  }
}
