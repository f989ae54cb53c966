package dev.mcpfusion.http;

import java.util.Optional;

/** {@link SessionStore#none()}: the endpoint keeps its sessions in its own memory only. */
enum NoSessionStore implements SessionStore {
  INSTANCE;

  @Override
  public void save(StoredSession session) {}

  @Override
  public Optional<StoredSession> load(String sessionId) {
    return Optional.empty();
  }

  @Override
  public void touch(String sessionId) {}

  @Override
  public void remove(String sessionId) {}
}
