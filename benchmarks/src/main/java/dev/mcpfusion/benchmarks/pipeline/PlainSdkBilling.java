package dev.mcpfusion.benchmarks.pipeline;

import dev.mcpfusion.samples.billing.model.Invoice;
import dev.mcpfusion.samples.billing.model.InvoiceStatus;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import dev.mcpfusion.samples.billing.store.Tenant;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The baseline of benchmark 1: the billing tools written by hand on the plain MCP Java SDK types,
 * doing the same useful work as the framework's pipeline — decode the arguments from the request's
 * map, check the same constraints ({@code id} present, a string, not blank, matching
 * {@code INV-\d+}), resolve the tenant, look the invoice(s) up, and answer a
 * {@link McpSchema.CallToolResult} whose text is the compact JSON of the same fields and whose
 * {@code structuredContent} is the same tree.
 *
 * <p>It does not render the framework's extras (domain rules, suggestions, truncation summary,
 * {@code _meta}); BENCHMARKS.md says so next to the numbers.
 */
public final class PlainSdkBilling {
  private static final Pattern INVOICE_ID = Pattern.compile("INV-\\d+");
  private static final int LIMIT = 50;
  private static final List<String> RULES = List.of(
      "id: Invoice ID, e.g. INV-0042",
      "totalCents: Total in integer cents; divide by 100 for display",
      "status: draft, open, paid or void",
      "Money is in integer cents. Divide by 100 before showing it to a person.");
  private static final McpSchema.TextContent RULES_BLOCK = new McpSchema.TextContent(
      "<domain_rules>\n- " + String.join("\n- ", RULES) + "\n</domain_rules>");
  private static final Map<String, Object> RULES_META = Map.of("mcpfusion/rules", RULES);

  private final InvoiceStore store;
  private final McpJsonMapper json;

  /** Handlers over {@code store}, writing JSON with {@code json} (the SDK's mapper). */
  public PlainSdkBilling(InvoiceStore store, McpJsonMapper json) {
    this.store = store;
    this.json = json;
  }

  /** {@code get_invoice} as a plain SDK tool handler. */
  public McpSchema.CallToolResult getInvoice(McpSyncServerExchange exchange,
      McpSchema.CallToolRequest request) {
    Map<String, Object> args = request.arguments() == null ? Map.of() : request.arguments();
    Object raw = args.get("id");
    if (raw == null) {
      return error("id is required");
    }
    if (!(raw instanceof String id)) {
      return error("id must be a string");
    }
    if (id.isBlank()) {
      return error("id must not be blank");
    }
    if (!INVOICE_ID.matcher(id).matches()) {
      return error("id must match INV-\\d+");
    }
    Tenant tenant = tenant(request);
    if (tenant == null) {
      return error("This call carries no tenant.");
    }
    Optional<Invoice> found = store.find(tenant, id);
    if (found.isEmpty()) {
      return error("Invoice \"" + id + "\" does not exist.");
    }
    Map<String, Object> tree = tree(found.get());
    return new McpSchema.CallToolResult(List.of(new McpSchema.TextContent(write(tree))), false,
        tree, null);
  }

  /**
   * {@code get_invoice} answering exactly what the framework answers for an invoice without
   * suggestions: the same data block plus the {@code <domain_rules>} block and the
   * {@code mcpfusion/rules} {@code _meta} entry, both constants written once by hand.
   */
  public McpSchema.CallToolResult getInvoiceWithRules(McpSyncServerExchange exchange,
      McpSchema.CallToolRequest request) {
    McpSchema.CallToolResult plain = getInvoice(exchange, request);
    if (Boolean.TRUE.equals(plain.isError())) {
      return plain;
    }
    return new McpSchema.CallToolResult(List.of(plain.content().get(0), RULES_BLOCK), false,
        plain.structuredContent(), RULES_META);
  }

  /** {@code list_invoices} (optional {@code status}) as a plain SDK tool handler: the first page of 50. */
  public McpSchema.CallToolResult listInvoices(McpSyncServerExchange exchange,
      McpSchema.CallToolRequest request) {
    Map<String, Object> args = request.arguments() == null ? Map.of() : request.arguments();
    InvoiceStatus status = null;
    Object raw = args.get("status");
    if (raw != null) {
      if (!(raw instanceof String name)) {
        return error("status must be a string");
      }
      try {
        status = InvoiceStatus.valueOf(name);
      } catch (IllegalArgumentException e) {
        return error("status must be one of DRAFT, OPEN, PAID, VOID");
      }
    }
    Tenant tenant = tenant(request);
    if (tenant == null) {
      return error("This call carries no tenant.");
    }
    List<Invoice> all = store.list(tenant, status);
    int shown = Math.min(LIMIT, all.size());
    List<Object> items = new ArrayList<>(shown);
    for (int i = 0; i < shown; i++) {
      items.add(tree(all.get(i)));
    }
    Map<String, Object> structured = new LinkedHashMap<>();
    structured.put("items", items);
    if (shown < all.size()) {
      // The same page the connector returns: the next cursor wraps the last id shown.
      Map<String, Object> truncated = new LinkedHashMap<>();
      truncated.put("shown", shown);
      truncated.put("more", true);
      truncated.put("next", cursor(all.get(shown - 1).id()));
      structured.put("truncated", truncated);
    }
    return new McpSchema.CallToolResult(List.of(new McpSchema.TextContent(write(items))), false,
        structured, null);
  }

  /** An opaque next-page cursor: the position, base64url, and a CRC-32 against made-up cursors. */
  private static String cursor(String lastId) {
    byte[] payload = ("0:+" + lastId).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    crc.update(payload);
    return "p1." + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(payload) + "."
        + String.format(java.util.Locale.ROOT, "%08x", crc.getValue());
  }

  private static Map<String, Object> tree(Invoice invoice) {
    Map<String, Object> tree = new LinkedHashMap<>();
    tree.put("id", invoice.id());
    tree.put("totalCents", invoice.totalCents());
    tree.put("status", invoice.status().name());
    return tree;
  }

  private static Tenant tenant(McpSchema.CallToolRequest request) {
    Object fromMeta = request.meta() == null ? null : request.meta().get("tenant");
    String id = fromMeta instanceof String s ? s : Tenant.SAMPLE_TENANT;
    return id.isBlank() ? null : new Tenant(id);
  }

  private String write(Object value) {
    try {
      return json.writeValueAsString(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static McpSchema.CallToolResult error(String message) {
    return new McpSchema.CallToolResult(List.of(new McpSchema.TextContent(message)), true, null,
        null);
  }
}
