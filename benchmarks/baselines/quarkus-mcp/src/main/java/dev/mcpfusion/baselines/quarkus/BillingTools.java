package dev.mcpfusion.baselines.quarkus;

import io.quarkiverse.mcp.server.Meta;
import io.quarkiverse.mcp.server.MetaKey;
import io.quarkiverse.mcp.server.TextContent;
import io.quarkiverse.mcp.server.Tool;
import io.quarkiverse.mcp.server.ToolArg;
import io.quarkiverse.mcp.server.ToolResponse;
import io.vertx.core.json.Json;
import jakarta.inject.Inject;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code billing_get_invoice} written by hand on the Quarkus MCP server extension: the same checks,
 * lookup and answer as the fusion sample and the plain-SDK baselines (the invoice's public fields as
 * compact JSON text, and the same object as {@code structuredContent}).
 */
public class BillingTools {
  private static final Pattern INVOICE_ID = Pattern.compile("INV-\\d+");
  private static final MetaKey TENANT = MetaKey.of("tenant");

  /** What an agent may see of an invoice: never the webhook secret, internal flags or tenant. */
  public record InvoiceView(String id, long totalCents, String status) {}

  @Inject
  Invoices invoices;

  @Tool(name = "billing_get_invoice", description = "Get one invoice")
  ToolResponse getInvoice(@ToolArg(description = "Invoice ID, e.g. INV-0042") String id, Meta meta) {
    if (id == null) {
      return ToolResponse.error("id is required");
    }
    if (id.isBlank()) {
      return ToolResponse.error("id must not be blank");
    }
    if (!INVOICE_ID.matcher(id).matches()) {
      return ToolResponse.error("id must match INV-\\d+");
    }
    Object fromMeta = meta == null ? null : meta.getValue(TENANT);
    String tenant = fromMeta instanceof String s ? s : Invoices.SAMPLE_TENANT;
    if (tenant.isBlank()) {
      return ToolResponse.error("This call carries no tenant.");
    }
    Invoices.Invoice invoice = invoices.find(tenant, id);
    if (invoice == null) {
      return ToolResponse.error("Invoice \"" + id + "\" does not exist.");
    }
    InvoiceView view = new InvoiceView(invoice.id(), invoice.totalCents(), invoice.status());
    // The text is written here, with the extension's own JSON codec, as the other baselines write theirs.
    return new ToolResponse(false, List.of(new TextContent(Json.encode(view))), view, null);
  }
}
