import WebSocket from 'ws';

/** A WebSocket client that keeps every frame it receives, for tests. */
export interface WsClient {
  socket: WebSocket;
  frames: any[];
  send(frame: unknown): void;
  /** Resolves with every frame received after the call, up to and including the first that matches. */
  until(match: (frame: any) => boolean): Promise<any[]>;
  close(): Promise<void>;
}

export function connectWs(url: string, headers: Record<string, string> = {}): Promise<WsClient> {
  const socket = new WebSocket(url, { headers });
  const frames: any[] = [];
  let waiters: (() => void)[] = [];
  socket.on('message', (data) => {
    frames.push(JSON.parse((data as Buffer).toString()));
    for (const wake of waiters) wake();
  });
  return new Promise((resolve, reject) => {
    // The refusal's body (our error shape) comes along as `body`.
    socket.once('unexpected-response', (request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => {
        request.destroy();
        const error = new Error(`upgrade refused: ${response.statusCode}`);
        reject(Object.assign(error, { statusCode: response.statusCode, body: text ? JSON.parse(text) : undefined }));
      });
    });
    socket.once('error', reject);
    socket.once('open', () =>
      resolve({
        socket,
        frames,
        send: (frame) => socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
        until(match) {
          const from = frames.length;
          return new Promise((done) => {
            const check = () => {
              const index = frames.slice(from).findIndex(match);
              if (index === -1) return;
              waiters = waiters.filter((wake) => wake !== check);
              done(frames.slice(from, from + index + 1));
            };
            waiters.push(check);
            check();
          });
        },
        close: () =>
          new Promise((done) => {
            if (socket.readyState === socket.CLOSED) return done();
            socket.once('close', () => done());
            socket.close();
          }),
      }),
    );
  });
}
