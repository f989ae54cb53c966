/** A package that declares its {@code @Proxy} upstream's policy once, for the lock tests. */
@ProxyUpstream(name = "billing-api", hosts = "billing.example.com")
package dev.mcpfusion.lock.proxypolicy;

import dev.mcpfusion.annotation.ProxyUpstream;
