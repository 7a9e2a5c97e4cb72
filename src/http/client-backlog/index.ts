export { CLIENT_BACKLOG_BYTES, watchClientBacklog, type ClientBacklog } from './client-backlog.js';
export {
  createSendQueuePoller,
  type PolledSocket,
  type SendQueuePoller,
  type SendQueuePollerOptions,
} from './send-queue-poller.js';
export {
  parseSendQueues,
  readProcTcpTable,
  tcpConnectionKey,
  type TcpConnectionKey,
  type TcpTable,
  type TcpTableReader,
} from './proc-net-tcp.js';
