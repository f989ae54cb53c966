package dev.mcpfusion.samples.billing;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import java.util.Arrays;
import java.util.List;

/**
 * Runs the billing connector over stdio: {@code java -jar fusion-sample-billing.jar [--grouped]}.
 * stdout carries the protocol alone; everything else goes to stderr.
 */
public final class BillingMain {
  private BillingMain() {}

  public static void main(String[] args) throws Exception {
    FusionServer.reserveStdout();
    List<String> options = Arrays.asList(args);
    for (String option : options) {
      if (!option.equals("--grouped") && !option.equals("--flat")) {
        System.err.println("Unknown option '" + option + "'. Usage: java -jar fusion-sample-billing.jar [--grouped | --flat]");
        System.exit(2);
      }
    }
    Exposition exposition = options.contains("--grouped") ? Exposition.GROUPED : Exposition.FLAT;
    BillingConnector.builder(InvoiceStore.sample(), exposition).build().serveStdio();
  }
}
