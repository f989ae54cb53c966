package dev.mcpfusion.maven;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The goal as Maven sees it: its name, phase and the parameters and properties the guide names. */
class OpenApiDescriptorTest {
  @Test
  void theOpenapiGoalRunsInGenerateSourcesWithTheDocumentedParameters() throws IOException {
    String descriptor;
    try (InputStream in = OpenApiMojo.class.getResourceAsStream("/META-INF/maven/plugin.xml")) {
      assertThat(in).as("the plugin descriptor in target/classes").isNotNull();
      descriptor = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String mojo = descriptor.substring(descriptor.indexOf("<goal>openapi</goal>"));
    mojo = mojo.substring(0, mojo.indexOf("</mojo>"));
    assertThat(mojo).contains("<phase>generate-sources</phase>")
        .contains("<implementation>dev.mcpfusion.maven.OpenApiMojo</implementation>")
        .contains("<spec implementation=\"java.io.File\">${mcpfusion.openapi.spec}</spec>")
        .contains("<packageName implementation=\"java.lang.String\">${mcpfusion.openapi.package}</packageName>")
        .contains("<routerName implementation=\"java.lang.String\">${mcpfusion.openapi.router}</routerName>")
        .contains("default-value=\"false\">${mcpfusion.openapi.skipUnsupported}</skipUnsupported>")
        .contains("<outputDirectory implementation=\"java.io.File\" default-value=\"${project.build.directory}/generated-sources/openapi\"/>")
        .contains("<name>hiddenFields</name>").contains("<name>excludeOperations</name>")
        .contains("default-value=\"false\">${mcpfusion.skip}</skip>");
  }
}
