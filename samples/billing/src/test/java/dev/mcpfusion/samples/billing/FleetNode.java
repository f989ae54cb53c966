package dev.mcpfusion.samples.billing;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.redis.FleetBudget;
import dev.mcpfusion.redis.FusionRedis;
import dev.mcpfusion.redis.RedisSettings;
import dev.mcpfusion.samples.billing.model.Invoice;
import dev.mcpfusion.samples.billing.model.InvoiceStatus;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import dev.mcpfusion.samples.billing.store.Tenant;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * One instance of the billing fleet {@link FleetTest} runs: what {@code BillingMain --http PORT
 * --redis URL} starts (the billing connector, its sessions, streams and tasks on Redis through
 * {@link BillingFleet}, drained on SIGTERM), plus what only the test needs: a store holding, besides
 * the sample invoices, {@code count} open invoices {@code INV-2000000} … for the test's mutations
 * (one invoice per mutation, so each is voided at most once whichever instance runs it), and a
 * journal of the mutations this process carried out, one line per call, written before the
 * answer and unbuffered, so it survives a SIGKILL; and the calls of {@link FleetProbe}, whose
 * {@code probe_work} runs under a budget of {@code BUDGET} calls at once across the fleet
 * ({@code FusionRedis.budget}, on a connection of its own), each call's start and end written to
 * {@code RUNS}. Its Redis settings are the defaults (in the namespace {@code billing}): a client
 * resuming a killed instance's stream gets its error once the heartbeat's liveness (6 s) lapsed.
 *
 * <p>{@code java … FleetNode PORT REDIS_URL JOURNAL COUNT RUNS BUDGET}
 */
public final class FleetNode {
  /** The header carrying a mutation's id, written to the journal when the mutation succeeds. */
  static final String OPERATION = "x-fleet-op";
  /** The first invoice number of the mutations' invoices. */
  static final int FIRST_INVOICE = 2_000_000;
  /** How long a killed instance's {@code probe_work} calls keep their permits. */
  static final Duration BUDGET_LEASE = Duration.ofSeconds(5);

  private FleetNode() {}

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    String redis = args[1];
    FileOutputStream journal = new FileOutputStream(args[2], true);
    int count = Integer.parseInt(args[3]);
    FileOutputStream runs = new FileOutputStream(args[4], true);
    FusionRedis budgets = FusionRedis.connect(redis, RedisSettings.DEFAULT.withNamespace("billing"));
    FleetBudget budget = budgets.budget("probe", Integer.parseInt(args[5]), BUDGET_LEASE);
    InvoiceStore store = InvoiceStore.sample();
    for (int i = 0; i < count; i++) {
      store.put(new Invoice("INV-" + (FIRST_INVOICE + i), 100L + i, InvoiceStatus.OPEN,
          "whsec_fleet" + i, Map.of(), Tenant.SAMPLE_TENANT));
    }
    FusionServer.Builder builder = BillingConnector.builder(store, Exposition.FLAT)
        .middleware((call, next) -> {
          Object result = next.proceed(call);
          String operation = call.request().header(OPERATION).orElse(null);
          if (operation != null && "billing_void_invoice".equals(call.toolName())) {
            record(journal, operation);
          }
          return result;
        })
        .register(new FleetProbe(runs))
        .middleware((call, next) -> "probe_work".equals(call.toolName())
            ? budget.invoke(call, next) : next.proceed(call));
    HttpOptions options = BillingFleet.share(redis, RedisSettings.DEFAULT.withNamespace("billing"),
            builder)
        .apply(HttpOptions.port(port).allowedHosts("billing"));
    FusionHttpServer http = FusionHttp.serve(builder.build(), options);
    System.err.println("billing MCP server listening on " + http.endpoint());
    http.join();
  }

  static void record(FileOutputStream journal, String operation) throws IOException {
    byte[] line = (operation + "\n").getBytes(StandardCharsets.US_ASCII);
    synchronized (journal) {
      journal.write(line); // one write(2) per line: in the file even if the process is killed next
    }
  }
}
