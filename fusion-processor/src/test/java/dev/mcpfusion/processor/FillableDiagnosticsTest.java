package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.mcpfusion.processor.Fixtures.source;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import dev.mcpfusion.core.spi.FieldDescriptor;
import dev.mcpfusion.core.spi.RouterDescriptor;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/** {@code @Fillable} and {@code @Input(profile)}: each compile error, and what a clean use generates. */
class FillableDiagnosticsTest {

  private static final JavaFileObject DRAFT = source("shop.Draft",
      "package shop;",
      "import dev.mcpfusion.annotation.*;",
      "import jakarta.validation.constraints.*;",
      "@Model(description = \"An order draft\")",
      "public record Draft(",
      "    String id,",
      "    @Fillable({\"create\", \"update\"}) @Describe(\"Customer name\") @Size(max = 80) String customer,",
      "    @Fillable({\"create\", \"filter\"}) int quantity,",
      "    @Hidden String webhookSecret) {}");

  private static JavaFileObject tools(String parameter) {
    return source("shop.DraftTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"shop\")",
        "public class DraftTools {",
        "  @Mutation(description = \"Create a draft\")",
        "  public String create(" + parameter + ") { return \"ok\"; }",
        "}");
  }

  @Test
  void unknownProfileListsTheProfilesTheModelDeclares() {
    JavaFileObject router = tools("@Input(profile = \"crate\") Draft draft");
    Compilation c = Fixtures.compile(DRAFT, router);
    assertThat(c).hadErrorContaining("[fusion/UnknownProfile] DraftTools.create takes 'draft' through"
        + " the profile \"crate\", but no property of Draft the agent may send is"
        + " @Fillable(\"crate\") (its profiles: \"create\", \"update\", \"filter\"). Use one of its"
        + " profiles, or mark the properties the agent may send @Fillable(\"crate\").")
        .inFile(router).onLineContaining("Draft draft");
    assertThat(c).hadErrorCount(1);
  }

  @Test
  void aModelWithoutFillablePropertiesHasNoProfiles() {
    JavaFileObject plain = source("shop.Plain",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Model",
        "public record Plain(String id) {}");
    JavaFileObject router = tools("@Input(profile = \"create\") Plain draft");
    Compilation c = Fixtures.compile(plain, router);
    assertThat(c).hadErrorContaining("[fusion/UnknownProfile] DraftTools.create takes 'draft' through"
        + " the profile \"create\", but no property of Plain the agent may send is"
        + " @Fillable(\"create\") (its profiles: none).");
  }

  @Test
  void hiddenOrGuardedPropertyListedAsFillableIsAnError() {
    JavaFileObject model = source("shop.Leaky",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Model",
        "public record Leaky(",
        "    @Fillable(\"create\") String name,",
        "    @Fillable(\"create\") @Hidden String webhookSecret,",
        "    @Fillable({\"create\", \"update\"}) @Guarded String tenantId) {}");
    Compilation c = Fixtures.compile(model);
    assertThat(c).hadErrorContaining("[fusion/FillableNotAccepted] Leaky.webhookSecret is @Hidden, so"
        + " the agent may never send it, but it is @Fillable(\"create\"). Remove @Fillable from"
        + " 'webhookSecret', or drop @Hidden if the agent may fill it.")
        .inFile(model).onLineContaining("String webhookSecret");
    assertThat(c).hadErrorContaining("[fusion/FillableNotAccepted] Leaky.tenantId is @Guarded, so"
        + " the agent may never send it, but it is @Fillable(\"create\", \"update\").")
        .inFile(model).onLineContaining("String tenantId");
    assertThat(c).hadErrorCount(2);
  }

  @Test
  void inputOnATypeThatIsNotAModelIsAnError() {
    JavaFileObject filter = source("shop.Filter",
        "package shop;",
        "public record Filter(String text) {}");
    JavaFileObject router = tools("@Input(profile = \"filter\") Filter filter");
    Compilation c = Fixtures.compile(filter, router);
    assertThat(c).hadErrorContaining("[fusion/InputNotAModel] DraftTools.create takes 'filter' with"
        + " @Input(profile = \"filter\"), but its type Filter is not a @Model. Declare the"
        + " parameter as a @Model type whose properties are @Fillable(\"filter\"), or remove @Input.")
        .inFile(router).onLineContaining("Filter filter");
  }

  @Test
  void aClassModelWithoutSettersCannotBeBuilt() {
    JavaFileObject contact = source("shop.Contact",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Model",
        "public class Contact {",
        "  private String name;",
        "  @Fillable(\"create\") public String getName() { return name; }",
        "}");
    JavaFileObject router = tools("@Input(profile = \"create\") Contact contact");
    Compilation c = Fixtures.compile(contact, router);
    assertThat(c).hadErrorContaining("[fusion/ModelNotBuildable] DraftTools.create takes 'contact'"
        + " through the profile \"create\", but the generated code cannot build Contact: the"
        + " fillable property 'name' has no public setter setName(String). Declare Contact as a"
        + " record, or give it a public no-argument constructor and a public setter for each"
        + " fillable property.")
        .inFile(router).onLineContaining("Contact contact");
  }

  @Test
  void aClassModelWithoutANoArgConstructorCannotBeBuilt() {
    JavaFileObject contact = source("shop.Contact",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Model",
        "public class Contact {",
        "  private String name;",
        "  public Contact(String name) { this.name = name; }",
        "  @Fillable(\"create\") public String getName() { return name; }",
        "  public void setName(String name) { this.name = name; }",
        "}");
    Compilation c = Fixtures.compile(contact, tools("@Input(profile = \"create\") Contact contact"));
    assertThat(c).hadErrorContaining("[fusion/ModelNotBuildable] DraftTools.create takes 'contact'"
        + " through the profile \"create\", but the generated code cannot build Contact: it has no"
        + " public no-argument constructor.");
  }

  @Test
  void aFillablePropertyWithoutAJsonMappingNamesTheProperty() {
    JavaFileObject model = source("shop.Tagged",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Model",
        "public record Tagged(@Fillable(\"create\") java.util.Map<String, String> tags) {}");
    Compilation c = Fixtures.compile(model, tools("@Input(profile = \"create\") Tagged draft"));
    assertThat(c).hadErrorContaining("[fusion/UnsupportedParameterType] DraftTools.create takes"
        + " 'draft' through the profile \"create\", but the fillable property Tagged.tags has type"
        + " Map<String, String>: it has no JSON input mapping. Use String, a number, boolean, an"
        + " enum, UUID, LocalDate, Instant, OffsetDateTime, BigDecimal, BigInteger, a record, a"
        + " List, Set or array of these, or Optional of one. Or remove it from the profile.");
  }

  @Test
  void aFillableRecordPropertyMayNotCarryAHiddenComponentToTheAgent() {
    JavaFileObject address = source("shop.Address",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "public record Address(String city, @Hidden String geohash) {}");
    JavaFileObject model = source("shop.Customer",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Model",
        "public record Customer(@Fillable(\"create\") Address address) {}");
    JavaFileObject router = tools("@Input(profile = \"create\") Customer draft");
    Compilation c = Fixtures.compile(address, model, router);
    assertThat(c).hadErrorContaining("[fusion/HiddenInput] 'geohash' of Address is @Hidden")
        .inFile(router).onLineContaining("Customer draft");
  }

  @Test
  void theProfileIsOneNestedObjectOfExactlyItsFillableProperties() throws Exception {
    Compilation c = Fixtures.compile(DRAFT, tools("@Input(profile = \"create\") Draft draft"));
    assertThat(c).succeededWithoutWarnings();
    RouterDescriptor router = (RouterDescriptor) Fixtures.loader(c)
        .loadClass("shop.DraftTools_Fusion").getMethod("describe").invoke(null);
    FieldDescriptor field = router.actions().get(0).fields().get(0);
    assertThat(field.name()).isEqualTo("draft");
    assertThat(field.required()).isTrue();
    assertThat(field.profile()).isEqualTo("create");
    assertThat(field.schemaJson()).isEqualTo("{\"type\":\"object\",\"properties\":{"
        + "\"customer\":{\"type\":\"string\",\"maxLength\":80,\"description\":\"Customer name\"},"
        + "\"quantity\":{\"type\":\"integer\"}},"
        + "\"required\":[\"customer\",\"quantity\"],\"additionalProperties\":false,"
        + "\"description\":\"An order draft\"}");
  }
}
