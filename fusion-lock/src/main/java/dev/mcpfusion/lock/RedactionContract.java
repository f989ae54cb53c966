package dev.mcpfusion.lock;

import dev.mcpfusion.annotation.Detector;
import dev.mcpfusion.annotation.Mask;
import dev.mcpfusion.core.Redaction;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What an action's replies are masked with: the view's {@code @Redact}, else the profile's
 * server-wide default; absent from the lockfile when nothing is masked.
 *
 * @param paths the path patterns, sorted
 * @param detect the detector names, sorted
 * @param patterns the user patterns: name to regular expression
 * @param mask {@code FULL} or {@code PARTIAL}
 */
public record RedactionContract(List<String> paths, List<String> detect,
    Map<String, String> patterns, Mask mask) {

  public RedactionContract {
    paths = List.copyOf(new TreeSet<>(paths));
    detect = List.copyOf(new TreeSet<>(detect));
    patterns = Collections.unmodifiableMap(new TreeMap<>(patterns));
  }

  /** The contract of {@code policy}; {@code null} when it masks nothing. */
  static RedactionContract of(Redaction policy) {
    if (policy == null || policy.isEmpty()) {
      return null;
    }
    Map<String, String> patterns = new TreeMap<>();
    policy.patterns().forEach((k, v) -> patterns.put(k, v.pattern()));
    return new RedactionContract(policy.paths(),
        policy.detectors().stream().map(Detector::name).toList(), patterns, policy.mask());
  }

  /** The policy this contract records (for a profile read back from the lockfile). */
  Redaction toRedaction() {
    Redaction r = Redaction.paths(paths.toArray(new String[0]))
        .detect(detect.stream().map(Detector::valueOf).toArray(Detector[]::new)).mask(mask);
    for (Map.Entry<String, String> p : patterns.entrySet()) {
      r = r.pattern(p.getKey(), p.getValue());
    }
    return r;
  }

  /**
   * What {@code live} no longer masks that this contract did, one entry per path, detector or
   * pattern removed or changed, and the mask going from {@code FULL} to {@code PARTIAL}; empty when
   * {@code live} masks at least as much.
   */
  List<String> loosenedIn(RedactionContract live) {
    List<String> lost = new ArrayList<>();
    paths.stream().filter(p -> !live.paths.contains(p)).forEach(p -> lost.add("path " + p));
    detect.stream().filter(d -> !live.detect.contains(d)).forEach(d -> lost.add("detector " + d));
    patterns.forEach((name, regex) -> {
      if (!regex.equals(live.patterns.get(name))) {
        lost.add("pattern " + name);
      }
    });
    if (mask == Mask.FULL && live.mask == Mask.PARTIAL) {
      lost.add("mask FULL -> PARTIAL");
    }
    return lost;
  }

  /** A compact one-line form for drift reports. */
  String summary() {
    return "paths=" + paths + " detect=" + detect + " patterns=" + patterns.keySet() + " mask=" + mask;
  }

  Map<String, Object> toTree() {
    Map<String, Object> tree = new TreeMap<>();
    tree.put("detect", detect);
    tree.put("mask", mask.name());
    tree.put("paths", paths);
    tree.put("patterns", new TreeMap<>(patterns));
    return tree;
  }

  static RedactionContract fromTree(TreeReader r) {
    return new RedactionContract(r.strings("paths"), r.strings("detect"), r.stringMap("patterns"),
        r.enumValue("mask", Mask.class));
  }
}
