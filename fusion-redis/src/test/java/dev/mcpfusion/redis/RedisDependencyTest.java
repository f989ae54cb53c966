package dev.mcpfusion.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * What Lettuce brings with it: Reactor is the line the MCP SDK was built against (Lettuce names an
 * older one, which must not win), and Lettuce's pre-release token-auth library is left out.
 */
class RedisDependencyTest {
  @Test
  void reactorIsTheSdksReleaseLineNotLettucesNorAPreRelease() throws Exception {
    String version = Class.forName("reactor.core.publisher.Flux").getPackage().getImplementationVersion();
    assertThat(version).isEqualTo(System.getProperty("fusion.reactor.version"))
        .doesNotContainIgnoringCase("RC").doesNotContain("-M");
  }

  @Test
  void lettucesPreReleaseTokenAuthLibraryIsNotOnTheClassPath() {
    assertThatThrownBy(() -> Class.forName("redis.clients.authentication.core.TokenManager"))
        .isInstanceOf(ClassNotFoundException.class);
  }
}
