package dev.mcpfusion.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.core.spi.RouterDescriptor;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lockfile names each FLAT tool as the server exposes it, {@code @Router(prefixed = false)} included. */
class FlatNamesLockTest {
  @Router(value = "billing", prefixed = false)
  static final class Unprefixed {}

  @Test
  void anUnprefixedRoutersToolsAreLockedUnderTheirActionNames() {
    RouterDescriptor d = LockFixtures.billing();
    Contract unprefixed = Contract.of(List.of(new RouterDescriptor(d.name(), d.description(),
        Unprefixed.class, d.commonFields(), d.actions(), d.middleware())), LockProfile.defaults());
    assertThat(unprefixed.tools()).containsKey("get_invoice");
    assertThat(unprefixed.tools().keySet()).noneMatch(name -> name.startsWith("billing_"));

    Contract prefixed = Contract.of(List.of(d), LockProfile.defaults());
    assertThat(prefixed.tools()).containsKey("billing_get_invoice").doesNotContainKey("get_invoice");
  }
}
