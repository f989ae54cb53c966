package dev.mcpfusion.core.presenter;

import dev.mcpfusion.core.guard.EgressCap;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.Args;
import dev.mcpfusion.core.spi.FieldDescriptor;
import dev.mcpfusion.core.spi.PresenterBinding;
import dev.mcpfusion.core.spi.Problems;
import dev.mcpfusion.core.spi.ResultShape;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32;

/**
 * What one call asks of the presenter besides the handler's result: the fields the agent selected
 * ({@code _select}) and, for a paged action, where in the listing it is ({@code cursor}). Both inputs
 * are consumed here, in step 3, so no handler or middleware sees {@code _select} or the wire form of
 * a cursor.
 *
 * <p>The wire cursor is {@code p1.<base64url(skip ":" ("-" | "+" handlerCursor))>.<crc32 hex>}: the
 * handler's cursor of the page to ask for, and how many of that page's items were already shown
 * (a page cut by {@code agentLimit} or the byte cap resumes inside the same page). The checksum
 * catches a cursor the agent made up or mangled; it is not a signature.
 */
public final class PerCall implements EgressCap.Paging {
  /** The field-selection input. */
  public static final String SELECT = "_select";
  /** The cursor input of a paged action. */
  public static final String CURSOR = "cursor";
  /** Nothing selected, not paged. */
  public static final PerCall NONE = new PerCall(null, null, null, 0, null);

  private static final String PREFIX = "p1.";
  private static final int MAX_CURSOR = 4096;

  private final Set<String> select;
  private final String handlerCursor;
  private final String wireCursor;
  private final int skip;
  private final String call;

  private PerCall(Set<String> select, String handlerCursor, String wireCursor, int skip, String call) {
    this.select = select;
    this.handlerCursor = handlerCursor;
    this.wireCursor = wireCursor;
    this.skip = skip;
    this.call = call;
  }

  /** Whether {@code action} takes an input this class consumes. */
  public static boolean applies(ActionDescriptor action) {
    return action.resultShape() == ResultShape.PAGE || selects(action);
  }

  /**
   * Whether {@code action} takes {@code _select}: its view selects fields and its input lists the
   * field. The processor lists it for a query and for a mutation or action that opts in, so the
   * listed input is the one rule; a {@code _select} sent to an action that does not list it reaches
   * the decoder like any unknown argument.
   */
  public static boolean selects(ActionDescriptor action) {
    PresenterBinding<?, ?> p = action.presenter();
    if (p == null || !p.selectable()) {
      return false;
    }
    for (FieldDescriptor f : action.fields()) {
      if (f.name().equals(SELECT)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Reads and removes {@code _select} from {@code args}, and replaces a wire {@code cursor} by the
   * handler's; a bad value is added to {@code problems} (and removed, so it is reported once).
   *
   * @param call how the agent calls the action ({@code billing_list_invoices}), for the
   *     next-page advice
   */
  public static PerCall read(ActionDescriptor action, Map<String, Object> args, Problems problems,
      String call) {
    Set<String> select = null;
    PresenterBinding<?, ?> p = action.presenter();
    if (selects(action) && args.containsKey(SELECT)) {
      select = select(args.remove(SELECT), p.fieldNames(), problems);
    }
    if (action.resultShape() != ResultShape.PAGE) {
      return new PerCall(select, null, null, 0, call);
    }
    Object raw = args.get(CURSOR);
    if (!(raw instanceof String wire)) {
      // absent, null (first page) or not a string: the generated decoder reports the type
      return new PerCall(select, null, null, 0, call);
    }
    String[] decoded = decode(wire);
    if (decoded == null) {
      args.remove(CURSOR);
      problems.add(CURSOR, "is not a cursor this tool gave out", wire,
          "Omit cursor to start from the first page, or send the truncated.next value of the"
              + " previous result unchanged.");
      return new PerCall(select, null, wire, 0, call);
    }
    args.put(CURSOR, decoded[1]);
    return new PerCall(select, decoded[1], wire, Integer.parseInt(decoded[0]), call);
  }

  private static Set<String> select(Object raw, List<String> fields, Problems problems) {
    List<?> list = Args.array(raw, SELECT, problems);
    if (list == null) {
      if (raw == null) {
        return null;
      }
      return Set.of();
    }
    if (list.isEmpty()) {
      problems.add(SELECT, "must list at least one field; omit it for all fields", raw,
          "Choose from " + fields + ".");
      return Set.of();
    }
    Set<String> chosen = new LinkedHashSet<>();
    for (int i = 0; i < list.size(); i++) {
      String path = Args.index(SELECT, i);
      String name = Args.string(list.get(i), path, problems);
      if (name == null) {
        continue;
      }
      if (!fields.contains(name)) {
        problems.add(path, "must be one of " + fields, name);
      } else {
        chosen.add(name);
      }
    }
    return chosen;
  }

  /** The selected top-level fields, or {@code null} for all. */
  public Set<String> select() {
    return select;
  }

  /** The cursor the agent sent, as sent; {@code null} when none. */
  public String wireCursor() {
    return wireCursor;
  }

  /** How many items of the handler's page were already shown by earlier calls. */
  public int skip() {
    return skip;
  }

  /** The wire cursor that resumes after {@code shown} more items of the page this call asked for. */
  @Override
  public String resume(int shown) {
    return encode(handlerCursor, skip + shown);
  }

  /** The advice that ends the summary of a page with a next cursor. */
  @Override
  public String advice(String next) {
    return "For the next page, call " + call + " again with the same arguments and \"cursor\": \""
        + next + "\".";
  }

  /** The wire cursor of the handler's cursor {@code cursor} ({@code null}: the first page), skipping {@code skip}. */
  public static String encode(String cursor, int skip) {
    String payload = skip + ":" + (cursor == null ? "-" : "+" + cursor);
    byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
    return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes) + "."
        + crc(bytes);
  }

  /** {skip, handler cursor or null}, or {@code null} when {@code wire} is not one of ours. */
  static String[] decode(String wire) {
    if (wire.length() > MAX_CURSOR || !wire.startsWith(PREFIX)) {
      return null;
    }
    int dot = wire.lastIndexOf('.');
    if (dot <= PREFIX.length()) {
      return null;
    }
    byte[] bytes;
    try {
      bytes = Base64.getUrlDecoder().decode(wire.substring(PREFIX.length(), dot));
    } catch (IllegalArgumentException notBase64) {
      return null;
    }
    if (!crc(bytes).equals(wire.substring(dot + 1))) {
      return null;
    }
    String payload = new String(bytes, StandardCharsets.UTF_8);
    int colon = payload.indexOf(':');
    if (colon < 1 || colon > 9 || colon + 1 >= payload.length()) {
      return null;
    }
    String digits = payload.substring(0, colon);
    for (int i = 0; i < digits.length(); i++) {
      if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
        return null;
      }
    }
    char kind = payload.charAt(colon + 1);
    String rest = payload.substring(colon + 2);
    if (kind == '-' && rest.isEmpty()) {
      return new String[] {String.valueOf(Integer.parseInt(digits)), null};
    }
    if (kind == '+') {
      return new String[] {String.valueOf(Integer.parseInt(digits)), rest};
    }
    return null;
  }

  private static String crc(byte[] bytes) {
    CRC32 crc = new CRC32();
    crc.update(bytes);
    return String.format(Locale.ROOT, "%08x", crc.getValue());
  }

  /** The tree narrowed to the selected fields, in view order. */
  Map<String, Object> narrow(Map<String, Object> tree) {
    Map<String, Object> out = new java.util.LinkedHashMap<>();
    for (Map.Entry<String, Object> e : tree.entrySet()) {
      if (select.contains(e.getKey())) {
        out.put(e.getKey(), e.getValue());
      }
    }
    return out;
  }

  @Override
  public String toString() {
    return "PerCall[select=" + select + ", skip=" + skip + "]";
  }
}
