package io.listwatch.controllers;

import java.util.List;

/** A controller for tests that records when it runs and stops, as "name run" / "name closed". */
public final class RecordingController implements Controller {

  private final String name;
  private final List<String> log;

  public RecordingController(String name, List<String> log) {
    this.name = name;
    this.log = log;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void run(int workers) {
    log.add(name + " run " + workers);
  }

  @Override
  public void close() {
    log.add(name + " closed");
  }
}
