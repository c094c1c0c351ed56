// Requests and responses of both protocols the API server speaks. The http2 compatibility API gives an h2
// exchange the HTTP/1.1 shape; what differs is how one exchange is cut off and which headers are allowed.
import type { IncomingMessage, ServerResponse } from "node:http";
import { constants, type Http2ServerRequest, type Http2ServerResponse } from "node:http2";

export type ApiRequest = IncomingMessage | Http2ServerRequest;
export type ApiResponse = ServerResponse | Http2ServerResponse;

export const isHttp2 = (response: ApiResponse): response is Http2ServerResponse => "stream" in response;

/** HTTP/1.1: the connection drops (the client sees a reset). h2: RST_STREAM on this stream only, the connection lives on. */
export function resetExchange(response: ApiResponse, code: number = constants.NGHTTP2_INTERNAL_ERROR): void {
  if (isHttp2(response)) {
    if (!response.stream.destroyed) response.stream.close(code);
  } else {
    response.socket?.destroy();
  }
}

/** The `cut` fault: like a proxy with a maximum request duration, whatever is still open after `seconds` is cut off. */
export function cutAfter(response: ApiResponse, seconds: number): void {
  const timer = setTimeout(() => resetExchange(response, constants.NGHTTP2_CANCEL), seconds * 1000);
  timer.unref();
  response.once("close", () => clearTimeout(timer));
}

/** Writes part of a body (both response types are writable streams; their typings just differ). */
export function writeBody(response: ApiResponse, chunk: string | Buffer, callback?: () => void): void {
  (response as { write(chunk: string | Buffer, callback?: () => void): boolean }).write(chunk, callback);
}

/** Sends the status line and headers now, before any body (h2 sends them at writeHead already). */
export function flushHead(response: ApiResponse): void {
  if (!isHttp2(response)) response.flushHeaders();
}
