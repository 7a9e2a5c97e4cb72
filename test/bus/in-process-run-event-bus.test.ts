import { createRunEventBus } from '../../src/bus/index.js';
import { describeRunEventBus } from './run-event-bus.suite.js';

describeRunEventBus('in-process bus', (options) => createRunEventBus(options));
