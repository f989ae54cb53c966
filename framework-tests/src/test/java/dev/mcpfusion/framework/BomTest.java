package dev.mcpfusion.framework;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * fusion-bom cannot inherit from fusion-parent (an imported BOM would hand the consumer our JUnit
 * pins too), so it repeats the versions: these tests keep the two files telling the same story.
 */
class BomTest {
  private static Path root;
  private static Document parent;
  private static Document bom;

  @BeforeAll
  static void readPoms() throws Exception {
    root = Path.of("").toAbsolutePath().getParent();
    parent = read(root.resolve("pom.xml"));
    bom = read(root.resolve("fusion-bom/pom.xml"));
  }

  @Test
  void everyThirdPartyVersionInTheBomIsTheOneTheBuildTestsWith() {
    Map<String, String> parentProperties = properties(parent);
    Map<String, String> bomProperties = properties(bom);
    assertThat(bomProperties).isNotEmpty();
    bomProperties.forEach((name, version) -> assertThat(parentProperties.get(name))
        .as("fusion-parent's <%s> (fusion-bom has %s)", name, version)
        .isEqualTo(version));
  }

  @Test
  void bomListsEveryPublishedModule() throws Exception {
    TreeSet<String> published = new TreeSet<>();
    for (Element module : children(first(parent.getDocumentElement(), "modules"), "module")) {
      Document pom = read(root.resolve(module.getTextContent().strip()).resolve("pom.xml"));
      String artifactId = text(pom.getDocumentElement(), "artifactId");
      String packaging = text(pom.getDocumentElement(), "packaging");
      boolean notDeployed = "true".equals(properties(pom).get("maven.deploy.skip"));
      // The BOM itself and the archetype are published but are nothing to depend on.
      if (!notDeployed && !"pom".equals(packaging) && !"maven-archetype".equals(packaging)) {
        published.add(artifactId);
      }
    }
    assertThat(managed(bom, "dev.mcpfusion")).containsExactlyInAnyOrderElementsOf(published);
  }

  @Test
  void bomLeavesJunitToTheConsumer() {
    assertThat(managed(bom, "org.junit")).isEmpty();
    assertThat(managed(bom, "org.junit.jupiter")).isEmpty();
    assertThat(managed(bom, "org.junit.platform")).isEmpty();
  }

  @Test
  void bomHasNoParentSoNothingOfFusionParentLeaksIntoIt() {
    assertThat(first(bom.getDocumentElement(), "parent")).isNull();
  }

  private static List<String> managed(Document pom, String groupId) {
    Element dependencies = first(first(pom.getDocumentElement(), "dependencyManagement"), "dependencies");
    List<String> artifacts = new ArrayList<>();
    for (Element dependency : children(dependencies, "dependency")) {
      if (groupId.equals(text(dependency, "groupId"))) {
        artifacts.add(text(dependency, "artifactId"));
      }
    }
    return artifacts;
  }

  private static Map<String, String> properties(Document pom) {
    Map<String, String> properties = new LinkedHashMap<>();
    Element element = first(pom.getDocumentElement(), "properties");
    if (element != null) {
      for (Node n = element.getFirstChild(); n != null; n = n.getNextSibling()) {
        if (n instanceof Element property) {
          properties.put(property.getTagName(), property.getTextContent().strip());
        }
      }
    }
    return properties;
  }

  private static Document read(Path pom) throws Exception {
    assertThat(pom).exists();
    try (var in = Files.newInputStream(pom)) {
      return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
    }
  }

  private static Element first(Element parent, String tag) {
    List<Element> found = children(parent, tag);
    return found.isEmpty() ? null : found.get(0);
  }

  private static List<Element> children(Element parent, String tag) {
    List<Element> found = new ArrayList<>();
    if (parent != null) {
      for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
        if (n instanceof Element e && e.getTagName().equals(tag)) {
          found.add(e);
        }
      }
    }
    return found;
  }

  private static String text(Element parent, String tag) {
    Element element = first(parent, tag);
    return element == null ? null : element.getTextContent().strip();
  }
}
