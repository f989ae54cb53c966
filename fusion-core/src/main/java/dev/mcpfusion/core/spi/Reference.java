package dev.mcpfusion.core.spi;

/**
 * A logical action reference ({@code router.action}) written as a constant in a router's or a
 * presenter view's source that the processor could not check, because no router of its
 * compilation has that name: the server checks it at {@code build()} against every registered
 * router.
 *
 * @param site where it was written, e.g. {@code Suggestion.of in BillingTools}
 * @param target the reference, e.g. {@code ledger.post_entry}
 */
public record Reference(String site, String target) {}
