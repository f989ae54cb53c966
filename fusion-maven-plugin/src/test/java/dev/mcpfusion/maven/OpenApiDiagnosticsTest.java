package dev.mcpfusion.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad documents and bad configuration fail the goal with a message naming the place and the fix. */
class OpenApiDiagnosticsTest {
  @TempDir
  Path dir;

  private OpenApiMojo mojo(Path spec, String pkg, String router) {
    OpenApiMojo mojo = new OpenApiMojo();
    mojo.spec = spec.toFile();
    mojo.packageName = pkg;
    mojo.routerName = router;
    mojo.outputDirectory = dir.resolve("out").toFile();
    return mojo;
  }

  private static Path petstore() {
    return GeneratedConnector.DOCUMENTS.resolve(OpenApiDocuments.PETSTORE);
  }

  @Test
  void anUnreadableDocumentIsRefusedNamingTheFileAndWhatIsWrong() throws IOException {
    Path broken = Files.writeString(dir.resolve("broken.yaml"), "openapi: 3.0.3\ninfo: [unclosed\npaths: {}\n");
    assertThatThrownBy(() -> mojo(broken, "acme.api", "api").execute())
        .isInstanceOf(MojoFailureException.class)
        .hasMessageContaining("broken.yaml is not a readable OpenAPI 3.0 or 3.1 document")
        .hasMessageContaining("Fix the document");

    Path swagger2 = Files.writeString(dir.resolve("old.yaml"), "swagger: '2.0'\ninfo: {title: x, version: '1'}\npaths: {}\n");
    assertThatThrownBy(() -> mojo(swagger2, "acme.api", "api").execute())
        .hasMessageContaining("old.yaml is a Swagger 2.0 document: convert it to OpenAPI 3.0 or 3.1 first");

    assertThatThrownBy(() -> mojo(dir.resolve("missing.yaml"), "acme.api", "api").execute())
        .hasMessageContaining("missing.yaml does not exist").hasMessageContaining("<spec>");
  }

  @Test
  void anUnsupportedConstructFailsTheGoalWithItsPointerAndTheFix() {
    assertThatThrownBy(() -> mojo(petstore(), "acme.petstore", "petstore").execute())
        .isInstanceOf(MojoFailureException.class)
        .hasMessageContaining("petstore3.yaml#/paths/~1pet~1{petId}~1uploadImage/post/requestBody: operation"
            + " uploadFile: a request body that is not JSON (application/octet-stream). Fix: offer an application/json"
            + " body, or leave the operation out with <excludeOperations><excludeOperation>uploadFile"
            + "</excludeOperation></excludeOperations>.")
        .hasMessageContaining("petstore3.yaml#/paths/~1store~1inventory/get/responses/200/content/application~1json/schema:"
            + " operation getInventory: a free-form object (no properties)")
        .hasMessageContaining("<skipUnsupported>true</skipUnsupported>");
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @Test
  void skipUnsupportedWritesTheRestIntoACompileSourceRootAndExcludedOperationsAreLeftOut() throws Exception {
    OpenApiMojo mojo = mojo(petstore(), "acme.petstore", "petstore");
    mojo.skipUnsupported = true;
    mojo.excludeOperations = List.of("logoutUser");
    mojo.project = new MavenProject();
    mojo.execute();

    assertThat(mojo.project.getCompileSourceRoots()).contains(mojo.outputDirectory.getPath());

    String router = Files.readString(dir.resolve("out/acme/petstore/PetstoreTools.java"));
    assertThat(router).contains("public Map<String, Object> getPetById(").doesNotContain("logoutUser(")
        .contains("<li>{@code #/paths/~1store~1inventory/get/responses/200/content/application~1json/schema}");
  }

  @Test
  void badConfigurationFailsWithTheSettingAndItsFix() {
    assertThatThrownBy(() -> mojo(petstore(), "Acme.Pet-Store", "Pet Store").execute())
        .isInstanceOf(MojoFailureException.class)
        .hasMessageContaining("packageName \"Acme.Pet-Store\" is not a Java package name")
        .hasMessageContaining("routerName \"Pet Store\" is not a router name ([a-z][a-z0-9_]*)");

    OpenApiMojo hidden = mojo(petstore(), "acme.petstore", "petstore");
    hidden.skipUnsupported = true;
    hidden.hiddenFields = List.of("User.pasword");
    assertThatThrownBy(hidden::execute)
        .hasMessageContaining("hiddenFields names \"User.pasword\", which is no property of the document's schemas")
        .hasMessageContaining("did you mean \"User.password\"?");

    OpenApiMojo excluded = mojo(petstore(), "acme.petstore", "petstore");
    excluded.skipUnsupported = true;
    excluded.excludeOperations = List.of("addPett");
    assertThatThrownBy(excluded::execute)
        .hasMessageContaining("excludeOperations names \"addPett\", which is no operationId of the document")
        .hasMessageContaining("did you mean \"addPet\"?");
  }

  @Test
  void regeneratingDeletesWhatTheDocumentNoLongerHas() throws Exception {
    OpenApiMojo mojo = mojo(petstore(), "acme.petstore", "petstore");
    mojo.skipUnsupported = true;
    mojo.execute();
    Path stale = Files.writeString(dir.resolve("out/acme/petstore/Gone.java"), "package acme.petstore; class Gone {}");
    mojo.execute();
    assertThat(stale).doesNotExist();
    assertThat(new File(mojo.outputDirectory, "acme/petstore/Pet.java")).exists();
  }
}
