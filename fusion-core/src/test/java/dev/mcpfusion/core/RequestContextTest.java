package dev.mcpfusion.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestContextTest {
  @Test
  void headersAreFoundWhateverTheCaseOfTheNameOrOfTheLookup() {
    RequestContext request = RequestContext.of(Map.of("X-Tenant-Id", "t_1"), null, null, null);
    assertThat(request.header("x-tenant-id")).contains("t_1");
    assertThat(request.header("X-TENANT-ID")).contains("t_1");
    assertThat(request.header("X-Tenant-Id")).contains("t_1");
    assertThat(request.headers().get("x-tenant-ID")).isEqualTo("t_1");
    assertThat(request.header("x-tenant")).isEmpty();
    assertThat(RequestContext.empty().header("x-tenant-id")).isEmpty();
  }
}
