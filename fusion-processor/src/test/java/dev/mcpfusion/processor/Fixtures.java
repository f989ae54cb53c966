package dev.mcpfusion.processor;

import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.tools.JavaFileObject;

/** Compiles sources in memory with the processor and loads what it generated. */
final class Fixtures {
  private Fixtures() {}

  /** The class files {@code compiled} generated, packed into {@code dir/lib.jar}: a library. */
  static File jar(Path dir, Compilation compiled) throws IOException {
    Path jar = dir.resolve("lib.jar");
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream j = new JarOutputStream(out)) {
      for (JavaFileObject f : compiled.generatedFiles()) {
        String n = f.getName();
        int at = n.indexOf("CLASS_OUTPUT/");
        if (at < 0) {
          continue; // a generated source, not part of the library
        }
        j.putNextEntry(new JarEntry(n.substring(at + "CLASS_OUTPUT/".length())));
        try (InputStream in = f.openInputStream()) {
          in.transferTo(j);
        }
        j.closeEntry();
      }
    }
    return jar.toFile();
  }

  /** The jars/folders user code and generated code compile against: annotations, core, jakarta. */
  static List<File> classpath() {
    Set<File> files = new LinkedHashSet<>();
    for (Class<?> c : List.of(dev.mcpfusion.annotation.Model.class,
        dev.mcpfusion.core.spi.GeneratedRouter.class,
        jakarta.validation.constraints.NotBlank.class)) {
      try {
        files.add(new File(c.getProtectionDomain().getCodeSource().getLocation().toURI()));
      } catch (URISyntaxException e) {
        throw new IllegalStateException(e);
      }
    }
    return new ArrayList<>(files);
  }

  static JavaFileObject source(String qualifiedName, String... lines) {
    return JavaFileObjects.forSourceLines(qualifiedName, lines);
  }

  static Compilation compile(JavaFileObject... sources) {
    return compile(List.of(), sources);
  }

  static Compilation compile(List<String> options, JavaFileObject... sources) {
    return javac()
        .withProcessors(new FusionProcessor())
        .withClasspath(classpath())
        .withOptions(options)
        .compile(sources);
  }

  /** The generated source text of a class, e.g. {@code billing.BillingTools_Fusion}. */
  static String generatedSource(Compilation c, String qualifiedName) {
    JavaFileObject f = c.generatedSourceFile(qualifiedName)
        .orElseThrow(() -> new AssertionError("not generated: " + qualifiedName));
    try {
      return f.getCharContent(true).toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A class loader over the compilation's class output, parented by the test class path. */
  static ClassLoader loader(Compilation compilation) {
    Map<String, byte[]> classes = new HashMap<>();
    for (JavaFileObject f : compilation.generatedFiles()) {
      if (f.getKind() != JavaFileObject.Kind.CLASS) {
        continue;
      }
      String name = f.getName();
      int at = name.indexOf("CLASS_OUTPUT/");
      String binary = name.substring(at + "CLASS_OUTPUT/".length(), name.length() - ".class".length())
          .replace('/', '.');
      try (InputStream in = f.openInputStream()) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        in.transferTo(out);
        classes.put(binary, out.toByteArray());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return new ClassLoader(Fixtures.class.getClassLoader()) {
      @Override
      protected Class<?> findClass(String name) throws ClassNotFoundException {
        byte[] b = classes.get(name);
        if (b == null) {
          throw new ClassNotFoundException(name);
        }
        return defineClass(name, b, 0, b.length);
      }
    };
  }

  // ------------------------------------------------------------------ the billing example of the README

  static final JavaFileObject INVOICE_STATUS = source("billing.InvoiceStatus",
      "package billing;",
      "public enum InvoiceStatus { DRAFT, OPEN, PAID, VOID }");

  static final JavaFileObject INVOICE = source("billing.Invoice",
      "package billing;",
      "import dev.mcpfusion.annotation.*;",
      "import java.util.Map;",
      "@Model(description = \"A customer invoice\")",
      "public record Invoice(",
      "    @Describe(\"Invoice ID, e.g. INV-0042\") String id,",
      "    @Describe(\"Total in integer cents; divide by 100 for display\") long totalCents,",
      "    @Describe(\"draft, open, paid or void\") InvoiceStatus status,",
      "    @Hidden String webhookSecret,",
      "    @Hidden Map<String, Object> internalFlags,",
      "    @Hidden @Guarded String tenantId) {}");

  static final JavaFileObject INVOICE_VIEW = source("billing.InvoiceView",
      "package billing;",
      "import dev.mcpfusion.annotation.*;",
      "import dev.mcpfusion.core.Suggestion;",
      "import java.util.List;",
      "import java.util.Map;",
      "@Presenter(model = Invoice.class, agentLimit = 50)",
      "@Rules(\"Money is in integer cents. Divide by 100 before showing it to a person.\")",
      "public record InvoiceView(String id, long totalCents, InvoiceStatus status) {",
      "  @Suggest",
      "  static List<Suggestion> next(InvoiceView v) {",
      "    return v.status() == InvoiceStatus.OPEN",
      "        ? List.of(Suggestion.of(\"billing.void_invoice\", \"Open invoices can be voided\",",
      "            Map.of(\"id\", v.id())))",
      "        : List.of();",
      "  }",
      "}");

  static final JavaFileObject TENANT = source("billing.Tenant",
      "package billing;",
      "public record Tenant(String id) {}");

  static final JavaFileObject TENANT_GUARD = source("billing.TenantGuard",
      "package billing;",
      "import dev.mcpfusion.core.FusionMiddleware;",
      "import dev.mcpfusion.core.Invocation;",
      "public final class TenantGuard implements FusionMiddleware {",
      "  @Override public Object invoke(Invocation call, Chain next) throws Exception {",
      "    return next.proceed(call);",
      "  }",
      "}");

  static final JavaFileObject BILLING_TOOLS = source("billing.BillingTools",
      "package billing;",
      "import dev.mcpfusion.annotation.*;",
      "import jakarta.validation.constraints.NotBlank;",
      "import jakarta.validation.constraints.Pattern;",
      "import java.util.ArrayList;",
      "import java.util.List;",
      "import java.util.Map;",
      "@Router(value = \"billing\", description = \"Invoices: list, inspect and void them\")",
      "@Use(TenantGuard.class)",
      "public final class BillingTools {",
      "  public final List<Invoice> store = new ArrayList<>();",
      "  public BillingTools() {",
      "    store.add(new Invoice(\"INV-0001\", 1200, InvoiceStatus.OPEN, \"whsec_1\",",
      "        Map.of(\"flag\", true), \"t_777\"));",
      "    store.add(new Invoice(\"INV-0002\", 5000, InvoiceStatus.PAID, \"whsec_2\",",
      "        Map.of(), \"t_777\"));",
      "  }",
      "",
      "  @Query(description = \"List invoices, newest first\", presenter = InvoiceView.class)",
      "  @CacheControl(CachePolicy.NO_STORE)",
      "  public List<Invoice> listInvoices(@Describe(\"Only invoices in this status\") InvoiceStatus status,",
      "                                    @Context Tenant tenant) {",
      "    return store.stream().filter(i -> status == null || i.status() == status).toList();",
      "  }",
      "",
      "  @Query(description = \"Get one invoice\", presenter = InvoiceView.class)",
      "  public Invoice getInvoice(@NotBlank @Pattern(regexp = \"INV-\\\\d+\") String id, @Context Tenant tenant) {",
      "    return store.stream().filter(i -> i.id().equals(id) && i.tenantId().equals(tenant.id()))",
      "        .findFirst().orElseThrow();",
      "  }",
      "",
      "  @Mutation(description = \"Void an open invoice\", presenter = InvoiceView.class)",
      "  @Invalidates(\"billing.*\")",
      "  public Invoice voidInvoice(@NotBlank String id, @Context Tenant tenant) {",
      "    Invoice i = getInvoice(id, tenant);",
      "    Invoice v = new Invoice(i.id(), i.totalCents(), InvoiceStatus.VOID, i.webhookSecret(),",
      "        i.internalFlags(), i.tenantId());",
      "    store.set(store.indexOf(i), v);",
      "    return v;",
      "  }",
      "}");

  static JavaFileObject[] billing() {
    return new JavaFileObject[] {INVOICE_STATUS, INVOICE, INVOICE_VIEW, TENANT, TENANT_GUARD,
        BILLING_TOOLS};
  }

  // ------------------------------------------------------------------ inputs of every supported type

  static final JavaFileObject PRIORITY = source("orders.Priority",
      "package orders;",
      "public enum Priority { LOW, HIGH }");

  static final JavaFileObject NULLABLE = source("orders.Nullable",
      "package orders;",
      "import java.lang.annotation.*;",
      "@Retention(RetentionPolicy.CLASS)",
      "@Target({ElementType.TYPE_USE, ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD,",
      "    ElementType.RECORD_COMPONENT})",
      "public @interface Nullable {}");

  static final JavaFileObject WORKSPACE = source("orders.Workspace",
      "package orders;",
      "import dev.mcpfusion.annotation.Describe;",
      "public record Workspace(@Describe(\"The workspace\") String workspace,",
      "    @Nullable String region) {}");

  static final JavaFileObject LINE = source("orders.Line",
      "package orders;",
      "import jakarta.validation.constraints.*;",
      "import java.util.Optional;",
      "public record Line(@NotBlank String sku, @Min(1) @Max(99) int qty, Optional<String> note) {}");

  static final JavaFileObject ORDER_TOOLS = source("orders.OrderTools",
      "package orders;",
      "import dev.mcpfusion.annotation.*;",
      "import dev.mcpfusion.core.RequestContext;",
      "import jakarta.validation.constraints.*;",
      "import java.math.*;",
      "import java.time.*;",
      "import java.util.*;",
      "@Router(value = \"orders\", common = Workspace.class, description = \"Orders\")",
      "public class OrderTools {",
      "  /**",
      "   * Places an {@code order}. Charges the card.",
      "   *",
      "   * @param ws the workspace",
      "   */",
      "  @Mutation(idempotent = true)",
      "  public String placeOrder(Workspace ws, @NotEmpty @Size(max = 3) List<Line> lines,",
      "      Optional<String> coupon, UUID customer, LocalDate due, Instant at, OffsetDateTime odt,",
      "      @Positive @DecimalMax(value = \"1000.5\", inclusive = false) BigDecimal amount,",
      "      int[] codes, Set<Priority> tags, @Email String email, @Size(min = 2, max = 4) String code,",
      "      long count, Boolean flag, double ratio, BigInteger big, RequestContext rc) {",
      "    return ws + \"|\" + lines + \"|\" + coupon + \"|\" + customer + \"|\" + due + \"|\" + at",
      "        + \"|\" + odt + \"|\" + amount + \"|\" + Arrays.toString(codes) + \"|\" + tags + \"|\"",
      "        + email + \"|\" + code + \"|\" + count + \"|\" + flag + \"|\" + ratio + \"|\" + big",
      "        + \"|\" + (rc != null);",
      "  }",
      "",
      "  @Action(description = \"Ping the service\", readOnly = true, openWorld = true)",
      "  public void ping() {}",
      "",
      "  @Query(description = \"Count orders\")",
      "  public long count(Workspace ws) { return ws.workspace().length(); }",
      "",
      "  @Query(description = \"Echo a priority\")",
      "  public static Priority priority(@NotNull Priority p) { return p; }",
      "}");

  static JavaFileObject[] orders() {
    return new JavaFileObject[] {PRIORITY, NULLABLE, WORKSPACE, LINE, ORDER_TOOLS};
  }

  // ------------------------------------------------------------------ views of every supported shape

  static final JavaFileObject SHOP_NULLABLE = source("shop.Nullable",
      "package shop;",
      "import java.lang.annotation.*;",
      "@Target({ElementType.TYPE_USE})",
      "public @interface Nullable {}");

  static final JavaFileObject CUSTOMER = source("shop.Customer",
      "package shop;",
      "import dev.mcpfusion.annotation.*;",
      "public class Customer {",
      "  public String getName() { return \"Ada\"; }",
      "  public boolean isVip() { return true; }",
      "  @Hidden public String getPassword() { return \"hunter2\"; }",
      "}");

  static final JavaFileObject ADDRESS = source("shop.Address",
      "package shop;",
      "import dev.mcpfusion.annotation.*;",
      "public record Address(@Describe(\"City name\") String city, @Hidden String street) {}");

  static final JavaFileObject SHOP_LINE = source("shop.Line",
      "package shop;",
      "import dev.mcpfusion.annotation.*;",
      "public record Line(String sku, int qty, @Hidden String cost) {}");

  static final JavaFileObject ORDER = source("shop.Order",
      "package shop;",
      "import dev.mcpfusion.annotation.*;",
      "import java.math.BigDecimal;",
      "import java.time.Instant;",
      "import java.util.*;",
      "@Model(description = \"An order\")",
      "public record Order(String id, UUID ref, Instant at, BigDecimal amount, List<Line> lines,",
      "    Optional<Address> shipTo, Address billTo, Set<String> tags, @Nullable String note,",
      "    Customer customer, @Hidden String secret) {}");

  static final JavaFileObject VIEWS = source("shop.Views",
      "package shop;",
      "import dev.mcpfusion.annotation.*;",
      "import java.math.BigDecimal;",
      "import java.time.Instant;",
      "import java.util.*;",
      "public final class Views {",
      "  @Presenter(model = Line.class) @Rules(\"Quantities are units.\")",
      "  public record LineView(@Describe(\"Stock unit\") String sku, int qty) {}",
      "  @Presenter(model = Address.class)",
      "  public record AddressView(String city) {}",
      "  @Presenter(model = Customer.class)",
      "  public record CustomerView(String name, boolean vip) {}",
      "  @Presenter(model = Order.class, agentLimit = 7)",
      "  public record OrderView(String id, UUID ref, Instant at, BigDecimal amount,",
      "      List<LineView> lines, Optional<AddressView> shipTo, AddressView billTo,",
      "      Set<String> tags, @Nullable String note, CustomerView customer) {",
      "    @Rules static List<String> rules(OrderView v) {",
      "      return v.amount().signum() > 0 ? List.of(\"Amounts are in EUR.\") : List.of();",
      "    }",
      "  }",
      "}");

  static JavaFileObject[] shop() {
    return new JavaFileObject[] {SHOP_NULLABLE, CUSTOMER, ADDRESS, SHOP_LINE, ORDER, VIEWS};
  }

  // ------------------------------------------------------------------ every view component type

  static final JavaFileObject KINDS_NULLABLE = source("kinds.Nullable",
      "package kinds;",
      "import java.lang.annotation.*;",
      "@Target({ElementType.TYPE_USE})",
      "public @interface Nullable {}");

  static final JavaFileObject KINDS_COLOR = source("kinds.Color",
      "package kinds;",
      "public enum Color { RED, GREEN, \u00c9CRU }");

  static final JavaFileObject KINDS_PART = source("kinds.Part",
      "package kinds;",
      "import dev.mcpfusion.annotation.*;",
      "public record Part(String name, int qty, @Nullable Double weight, @Hidden String cost) {}");

  static final JavaFileObject KINDS_SAMPLE = source("kinds.Sample",
      "package kinds;",
      "import dev.mcpfusion.annotation.*;",
      "import java.math.*;",
      "import java.time.*;",
      "import java.util.*;",
      "@Model(description = \"One property of every type a view can expose\")",
      "public record Sample(String text, boolean flag, Boolean boxedFlag, byte tiny, Byte boxedTiny,",
      "    short small, Short boxedSmall, int count, Integer boxedCount, long big, Long boxedBig,",
      "    float ratio, Float boxedRatio, double amount, Double boxedAmount, BigInteger huge,",
      "    BigDecimal exact, UUID ref, LocalDate day, Instant at, OffsetDateTime when, Color color,",
      "    Part part, List<String> texts, List<Integer> counts, Collection<Double> amounts,",
      "    Set<Color> colors, List<Part> parts, List<UUID> refs, List<BigDecimal> prices,",
      "    Set<LocalDate> days, Optional<String> maybeText, Optional<Part> maybePart,",
      "    Optional<Long> maybeBig, Optional<Color> maybeColor, @Nullable String note,",
      "    @Nullable Part extra, @Nullable List<Color> palette, @Nullable Color tint,",
      "    @Nullable UUID maybeRef, @Nullable Long maybeCount, @Nullable BigDecimal maybeExact,",
      "    int gr\u00f6\u00dfe, String a$b, @Hidden String secret) {}");

  static final JavaFileObject KINDS_VIEWS = source("kinds.KindViews",
      "package kinds;",
      "import dev.mcpfusion.annotation.*;",
      "import java.math.*;",
      "import java.time.*;",
      "import java.util.*;",
      "public final class KindViews {",
      "  @Presenter(model = Part.class)",
      "  public record PartView(String name, int qty, Double weight) {}",
      "  @Presenter(model = Part.class, ignore = {\"name\", \"qty\", \"weight\"})",
      "  public record NoFields() {}",
      "  @Presenter(model = Sample.class)",
      "  public record SampleView(String text, boolean flag, Boolean boxedFlag, byte tiny,",
      "      Byte boxedTiny, short small, Short boxedSmall, int count, Integer boxedCount, long big,",
      "      Long boxedBig, float ratio, Float boxedRatio, double amount, Double boxedAmount,",
      "      BigInteger huge, BigDecimal exact, UUID ref, LocalDate day, Instant at,",
      "      OffsetDateTime when, Color color, PartView part, List<String> texts,",
      "      List<Integer> counts, Collection<Double> amounts, Set<Color> colors,",
      "      List<PartView> parts, List<UUID> refs, List<BigDecimal> prices, Set<LocalDate> days,",
      "      Optional<String> maybeText, Optional<PartView> maybePart, Optional<Long> maybeBig,",
      "      Optional<Color> maybeColor, String note, PartView extra, List<Color> palette,",
      "      Color tint, UUID maybeRef, Long maybeCount, BigDecimal maybeExact, int gr\u00f6\u00dfe,",
      "      String a$b) {}",
      "}");

  static JavaFileObject[] kinds() {
    return new JavaFileObject[] {KINDS_NULLABLE, KINDS_COLOR, KINDS_PART, KINDS_SAMPLE, KINDS_VIEWS};
  }

  // ------------------------------------------------------------------ non-ASCII text

  static final JavaFileObject INTL = source("intl.CafeTools",
      "package intl;",
      "import dev.mcpfusion.annotation.*;",
      "@Router(value = \"cafe\", description = \"Caf\u00e9 \u2713 \ud83d\udcca men\u00fc\")",
      "public class CafeTools {",
      "  @Query(description = \"Stra\u00dfe\")",
      "  public String greet(@Describe(\"Gr\u00fc\u00dfe \\\\ \u00e9\") String name) {",
      "    return name;",
      "  }",
      "}");

  // ------------------------------------------------------------------ prompts, resources, completions

  static final JavaFileObject DOCS = source("billing.Docs",
      "package billing;",
      "import dev.mcpfusion.annotation.*;",
      "import dev.mcpfusion.core.PromptResult;",
      "import jakarta.validation.constraints.NotBlank;",
      "import jakarta.validation.constraints.Pattern;",
      "import java.util.List;",
      "import java.util.Optional;",
      "@Use(TenantGuard.class)",
      "public class Docs {",
      "  public enum Tone { FRIENDLY, FIRM }",
      "  @Prompt(description = \"Summarise invoices\", presenter = InvoiceView.class)",
      "  public PromptResult summary(@NotBlank @Pattern(regexp = \"[a-z]+\") @Describe(\"Who reads it\") String audience,",
      "      Optional<String> note, @Describe(\"How it sounds\") Tone tone, @Context Tenant tenant) {",
      "    return PromptResult.user(audience + note.orElse(\"\") + tone + tenant.id());",
      "  }",
      "  /** Says hello. */",
      "  @Prompt(name = \"hello-world\", title = \"Hello\")",
      "  public static String hello() { return \"hi\"; }",
      "  @Resource(uri = \"docs://pages/{page}/v/{version}\", description = \"A page\")",
      "  public String page(String version, @Context Tenant tenant, String page) {",
      "    return page + \"@\" + version + \"/\" + tenant.id();",
      "  }",
      "  @Resource(uri = \"docs://logo\", description = \"The logo\", mimeType = \"image/png\")",
      "  public byte[] logo() { return new byte[] {1, 2}; }",
      "  @Resource(uri = \"docs://invoices\", description = \"Invoices\", presenter = InvoiceView.class)",
      "  public List<Invoice> invoices() { return List.of(); }",
      "  @Complete(prompt = \"summary\", argument = \"audience\")",
      "  public List<String> audiences(String prefix) { return List.of(prefix + \"1\", prefix + \"2\"); }",
      "  @Complete(resource = \"docs://pages/{page}/v/{version}\", argument = \"version\")",
      "  public List<String> versions(@Context Tenant tenant, String prefix) { return List.of(tenant.id() + prefix); }",
      "}");

  /** Every fixture that compiles cleanly, for the determinism check. */
  static List<JavaFileObject> all() {
    List<JavaFileObject> all = new ArrayList<>(List.of(billing()));
    all.addAll(List.of(orders()));
    all.addAll(List.of(shop()));
    all.addAll(List.of(kinds()));
    all.add(INTL);
    all.add(DOCS);
    return all;
  }
}
