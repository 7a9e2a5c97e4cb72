import {
  diag,
  SpanStatusCode,
  type Attributes,
  type AttributeValue,
  type Context,
  type Exception,
  type HrTime,
  type Link,
  type Span,
  type SpanContext,
  type SpanKind,
  type SpanStatus,
  type TimeInput,
} from '@opentelemetry/api';
import {
  addHrTimes,
  hrTime,
  hrTimeDuration,
  isAttributeValue,
  isTimeInput,
  isTimeInputHrTime,
  millisToHrTime,
  otperformance,
  type InstrumentationScope,
} from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanLimits, SpanProcessor, TimedEvent } from '@opentelemetry/sdk-trace-base';

export interface GatewaySpanInit {
  name: string;
  kind: SpanKind;
  spanContext: SpanContext;
  parentSpanContext: SpanContext | undefined;
  /** The caller's attributes, not yet checked: the span keeps a checked copy. */
  attributes: Attributes | undefined;
  links: Link[] | undefined;
  startTime: TimeInput | undefined;
  context: Context;
  resource: Resource;
  scope: InstrumentationScope;
  limits: Required<SpanLimits>;
  processor: SpanProcessor;
}

/**
 * A recording span with the OpenTelemetry SDK's semantics (the same limits, checks, times and exception events)
 * built with fewer objects: the caller's attributes are copied once, where the SDK's `Tracer` and `SpanImpl`
 * copy them three times, and no self-metrics closure is made per span. Everything around it is the SDK's:
 * sampler, id generator, batch processor, exporter (docs/decisions.md, "The gateway's own span class").
 * `gateway-span.test.ts` holds it to the SDK's `SpanImpl` call for call.
 */
export class GatewaySpan implements Span, ReadableSpan {
  name: string;
  readonly kind: SpanKind;
  readonly parentSpanContext: SpanContext | undefined;
  attributes: Attributes = {};
  readonly links: Link[] = [];
  readonly events: TimedEvent[] = [];
  readonly startTime: HrTime;
  endTime: HrTime = [0, 0];
  duration: HrTime = [-1, -1];
  status: SpanStatus = { code: SpanStatusCode.UNSET };
  ended = false;
  droppedAttributesCount = 0;
  droppedEventsCount = 0;
  droppedLinksCount = 0;
  readonly resource: Resource;
  readonly instrumentationScope: InstrumentationScope;

  private readonly spanContextValue: SpanContext;
  private readonly limits: Required<SpanLimits>;
  private readonly processor: SpanProcessor;
  private attributesCount = 0;
  // Later times are the start plus the monotonic clock's progress (as in the SDK): a wall clock step mid-span
  // does not stretch or shrink it.
  private readonly performanceStart: number;
  private readonly performanceOffset: number;
  private readonly startTimeProvided: boolean;

  constructor(init: GatewaySpanInit) {
    const now = Date.now();
    this.spanContextValue = init.spanContext;
    this.performanceStart = otperformance.now();
    this.performanceOffset = now - (this.performanceStart + otperformance.timeOrigin);
    this.startTimeProvided = init.startTime != null;
    this.limits = init.limits;
    this.processor = init.processor;
    this.name = init.name;
    this.kind = init.kind;
    this.parentSpanContext = init.parentSpanContext;
    this.resource = init.resource;
    this.instrumentationScope = init.scope;
    if (init.links) for (const link of init.links) this.addLink(link);
    this.startTime = this.timeOf(init.startTime ?? now);
    if (init.attributes) this.setStartAttributes(init.attributes);
    init.processor.onStart(this, init.context);
  }

  spanContext(): SpanContext {
    return this.spanContextValue;
  }

  isRecording(): boolean {
    return !this.ended;
  }

  setAttribute(key: string, value?: AttributeValue): this {
    if (value == null || this.endedWarning('setAttribute')) return this;
    if (key.length === 0) {
      diag.warn(`Invalid attribute key: ${key}`);
      return this;
    }
    if (!isAttributeValue(value)) {
      diag.warn(`Invalid attribute value set for key: ${key}`);
      return this;
    }
    const isNewKey = !Object.prototype.hasOwnProperty.call(this.attributes, key);
    if (isNewKey && this.attributesCount >= this.limits.attributeCountLimit) {
      this.droppedAttributesCount++;
      return this;
    }
    this.attributes[key] = this.truncated(value);
    if (isNewKey) this.attributesCount++;
    return this;
  }

  setAttributes(attributes: Attributes): this {
    for (const key in attributes) {
      if (Object.prototype.hasOwnProperty.call(attributes, key)) this.setAttribute(key, attributes[key]);
    }
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.endedWarning('addEvent')) return this;
    const { eventCountLimit } = this.limits;
    if (eventCountLimit === 0) {
      this.droppedEventsCount++;
      return this;
    }
    if (this.events.length >= eventCountLimit) {
      this.events.shift();
      this.droppedEventsCount++;
    }
    if (isTimeInput(attributesOrTime)) {
      if (!isTimeInput(time)) time = attributesOrTime;
      attributesOrTime = undefined;
    }
    const { attributes, droppedAttributesCount } = this.limitedCopy(
      attributesOrTime,
      this.limits.attributePerEventCountLimit,
    );
    this.events.push({ name, attributes, time: this.timeOf(time), droppedAttributesCount });
    return this;
  }

  addLink(link: Link): this {
    if (this.endedWarning('addLink')) return this;
    const { linkCountLimit } = this.limits;
    if (linkCountLimit === 0) {
      this.droppedLinksCount++;
      return this;
    }
    if (this.links.length >= linkCountLimit) {
      this.links.shift();
      this.droppedLinksCount++;
    }
    const { attributes, count, droppedAttributesCount } = this.limitedCopy(
      link.attributes,
      this.limits.attributePerLinkCountLimit,
    );
    const kept: Link = { context: link.context };
    if (count > 0) kept.attributes = attributes;
    if (droppedAttributesCount > 0) kept.droppedAttributesCount = droppedAttributesCount;
    this.links.push(kept);
    return this;
  }

  addLinks(links: Link[]): this {
    for (const link of links) this.addLink(link);
    return this;
  }

  setStatus(status: SpanStatus): this {
    if (this.endedWarning('setStatus')) return this;
    // UNSET changes nothing and OK is final (the API's rules).
    if (status.code === SpanStatusCode.UNSET || this.status.code === SpanStatusCode.OK) return this;
    const next: SpanStatus = { code: status.code };
    if (status.code === SpanStatusCode.ERROR && typeof status.message === 'string') next.message = status.message;
    this.status = next;
    return this;
  }

  updateName(name: string): this {
    if (!this.endedWarning('updateName')) this.name = name;
    return this;
  }

  recordException(exception: Exception, time?: TimeInput): void {
    const attributes: Attributes = {};
    if (typeof exception === 'string') {
      attributes['exception.message'] = exception;
    } else if (exception) {
      if (exception.code) attributes['exception.type'] = exception.code.toString();
      else if (exception.name) attributes['exception.type'] = exception.name;
      if (exception.message) attributes['exception.message'] = exception.message;
      if (exception.stack) attributes['exception.stacktrace'] = exception.stack;
    }
    if (attributes['exception.type'] || attributes['exception.message']) this.addEvent('exception', attributes, time);
    else diag.warn('Failed to record an exception', exception);
  }

  end(endTime?: TimeInput): void {
    if (this.ended) {
      diag.error(`${this.name} ${this.spanContextValue.spanId} - You can only call end() on a span once.`);
      return;
    }
    this.endTime = this.timeOf(endTime);
    this.duration = hrTimeDuration(this.startTime, this.endTime);
    if (this.duration[0] < 0) {
      this.endTime = [this.startTime[0], this.startTime[1]];
      this.duration = [0, 0];
    }
    this.processor.onEnding?.(this);
    this.ended = true;
    this.processor.onEnd(this);
  }

  /** A time given as the API allows (epoch or performance milliseconds, `Date`, `HrTime`), or now. */
  private timeOf(input: TimeInput | undefined): HrTime {
    if (typeof input === 'number') {
      // Small numbers are performance timestamps (the SDK's rule), larger ones epoch milliseconds.
      return input <= otperformance.now() ? hrTime(input + this.performanceOffset) : millisToHrTime(input);
    }
    if (input instanceof Date) return millisToHrTime(input.getTime());
    if (isTimeInputHrTime(input)) return input;
    if (this.startTimeProvided) return millisToHrTime(Date.now());
    return addHrTimes(this.startTime, millisToHrTime(otperformance.now() - this.performanceStart));
  }

  /**
   * The start attributes in one copy (a spread keeps the literal's shape) when they are all valid, under the
   * count limit and with no length limit set: the gateway's own spans always are. Any other set goes through
   * `setAttribute`, key by key, like the SDK's.
   */
  private setStartAttributes(given: Attributes): void {
    const copy: Attributes = { ...given };
    let count = 0;
    for (const key in copy) {
      const value = copy[key];
      if (value == null || key === '' || !isAttributeValue(value)) return void this.setAttributes(given);
      if (Array.isArray(value)) copy[key] = value.slice();
      count++;
    }
    if (count > this.limits.attributeCountLimit || this.limits.attributeValueLengthLimit !== Infinity)
      return void this.setAttributes(given);
    this.attributes = copy;
    this.attributesCount = count;
  }

  /** Event and link attributes: checked, truncated and counted against their own limit. */
  private limitedCopy(
    given: Attributes | undefined,
    limit: number,
  ): { attributes: Attributes; count: number; droppedAttributesCount: number } {
    const attributes: Attributes = {};
    let count = 0;
    let droppedAttributesCount = 0;
    for (const key in given) {
      if (!Object.prototype.hasOwnProperty.call(given, key)) continue;
      const value = given[key];
      if (key === '' || !isAttributeValue(value)) {
        diag.warn(`Invalid attribute value set for key: ${key}`);
        continue;
      }
      if (count >= limit) {
        droppedAttributesCount++;
        continue;
      }
      attributes[key] = this.truncated(value);
      count++;
    }
    return { attributes, count, droppedAttributesCount };
  }

  /** Strings (alone or in arrays) cut to the length limit; arrays copied, so a caller's later change is not recorded. */
  private truncated(value: AttributeValue): AttributeValue {
    const limit = this.limits.attributeValueLengthLimit;
    if (limit <= 0) return value; // not a valid limit: the SDK ignores it too
    if (typeof value === 'string') return value.length > limit ? value.substring(0, limit) : value;
    if (Array.isArray(value))
      return value.map((item: unknown) =>
        typeof item === 'string' && item.length > limit ? item.substring(0, limit) : item,
      ) as AttributeValue;
    return value;
  }

  private endedWarning(operation: string): boolean {
    if (this.ended) diag.warn(`Cannot execute ${operation} on ended span ${this.spanContextValue.spanId}`);
    return this.ended;
  }
}
