package io.listwatch.apiserver.cacher;

/** Lets tests of other packages see the frames {@link WatchEncoding} builds. */
public final class WatchEncodingAccess {

  private WatchEncodingAccess() {
  }

  /** The protobuf frame's parts (length, WatchEvent) of an event of {@code type} carrying {@code json}. */
  public static byte[][] protobufEvent(String type, byte[] json) {
    return WatchEncoding.PROTOBUF.event(WatchCacheEvent.Type.valueOf(type), json);
  }
}
