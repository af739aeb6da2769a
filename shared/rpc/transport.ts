// A link's carrier as the kernel sees it: whole messages out; whole messages in, each with the size in bytes it had
// on the carrier (so no one serializes a message again to measure it); and its end. Each carrier is a small adapter:
// a newline-framed socket, a WebSocket, a MessagePort.

export interface Transport<In, Out> {
  send(message: Out): void;
  onMessage(listener: (message: In, bytes: number) => void): void;
  onClose(listener: () => void): void;
  close(): void;
  readonly closed: boolean;
}
