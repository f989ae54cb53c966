package dev.mcpfusion.outbound;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** A test's DNS: fixed answers per name (a sequence of answers where it changes), counting lookups. */
final class StubResolver implements HostResolver {
  private final Map<String, List<List<InetAddress>>> answers = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> lookups = new ConcurrentHashMap<>();

  /** {@code host} answers these addresses (IP literals), every time. */
  StubResolver answer(String host, String... addresses) {
    answers.put(host, new ArrayList<>(List.of(addresses(addresses))));
    return this;
  }

  /** {@code host} answers {@code first}, then {@code then} at every later lookup. */
  StubResolver answerThen(String host, String[] first, String[] then) {
    answers.put(host, new ArrayList<>(List.of(addresses(first), addresses(then))));
    return this;
  }

  /** {@code host} answers a raw list (empty, or with a null in it). */
  StubResolver raw(String host, List<InetAddress> answer) {
    answers.put(host, new ArrayList<>(Arrays.asList(answer)));
    return this;
  }

  int lookups(String host) {
    AtomicInteger count = lookups.get(host);
    return count == null ? 0 : count.get();
  }

  @Override
  public List<InetAddress> resolve(String host) throws UnknownHostException {
    int n = lookups.computeIfAbsent(host, h -> new AtomicInteger()).getAndIncrement();
    if (host.startsWith("boom.")) {
      throw new IllegalStateException("resolver crashed");
    }
    List<List<InetAddress>> sequence = answers.get(host);
    if (sequence == null) {
      throw new UnknownHostException(host);
    }
    return sequence.get(Math.min(n, sequence.size() - 1));
  }

  private static List<InetAddress> addresses(String... literals) {
    List<InetAddress> list = new ArrayList<>();
    for (String literal : literals) {
      try {
        list.add(InetAddress.getByName(literal));
      } catch (UnknownHostException e) {
        throw new IllegalArgumentException(literal, e);
      }
    }
    return list;
  }
}
