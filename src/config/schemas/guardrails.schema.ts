import { z } from 'zod';

export const PII_TYPES = ['email', 'phone', 'ssn', 'credit_card', 'iban', 'ip_address'] as const;

const piiFields = {
  enabled: z.boolean(),
  action: z.enum(['block', 'redact', 'warn', 'log']),
  types: z.array(z.enum(PII_TYPES)).min(1, 'list at least one PII type, or set enabled: false'),
};

/** A content-filter pattern: a JavaScript regular expression, matched case-insensitively. */
const pattern = z.string().superRefine((source, ctx) => {
  let regex: RegExp;
  try {
    regex = new RegExp(source, 'iu');
  } catch (error) {
    ctx.addIssue({
      code: 'custom',
      message: `invalid regular expression /${source}/: ${(error as Error).message.replace(/^.*: /, '')}`,
    });
    return;
  }
  // A pattern that matches nothing at all would flag every text at position 0.
  if (regex.test(''))
    ctx.addIssue({ code: 'custom', message: `regular expression /${source}/ matches the empty string` });
});

const contentFilterFields = {
  enabled: z.boolean(),
  action: z.enum(['block', 'warn', 'log']),
  blocklist: z.array(z.string().trim().min(1, 'blocklist entries must not be empty')),
  patterns: z.array(pattern),
};

const hallucinationFields = {
  enabled: z.boolean(),
  /** Grounding scores below this are flagged. */
  threshold: z.number().min(0).max(1),
  action: z.enum(['warn', 'log']),
};

// A section that is present is enabled unless it says otherwise.
export const piiSchema = z.strictObject({
  enabled: piiFields.enabled.default(true),
  action: piiFields.action.default('redact'),
  types: piiFields.types.default([...PII_TYPES]),
});

export const contentFilterSchema = z.strictObject({
  enabled: contentFilterFields.enabled.default(true),
  action: contentFilterFields.action.default('block'),
  blocklist: contentFilterFields.blocklist.default([]),
  patterns: contentFilterFields.patterns.default([]),
});

export const hallucinationSchema = z.strictObject({
  enabled: hallucinationFields.enabled.default(true),
  threshold: hallucinationFields.threshold.default(0.3),
  action: hallucinationFields.action.default('warn'),
});

/** The global `guardrails` section. An absent check is off. */
export const guardrailsSchema = z
  .strictObject({
    pii: piiSchema.optional(),
    content_filter: contentFilterSchema.optional(),
    hallucination: hallucinationSchema.optional(),
  })
  .default({});

/**
 * An agent's `guardrails` field: the same shape with every field optional and no defaults, so that only
 * the fields an agent sets replace the global ones (zod's `.partial()` would fill in the defaults).
 */
export const guardrailsOverrideSchema = z.strictObject({
  pii: z
    .strictObject({
      enabled: piiFields.enabled.optional(),
      action: piiFields.action.optional(),
      types: piiFields.types.optional(),
    })
    .optional(),
  content_filter: z
    .strictObject({
      enabled: contentFilterFields.enabled.optional(),
      action: contentFilterFields.action.optional(),
      blocklist: contentFilterFields.blocklist.optional(),
      patterns: contentFilterFields.patterns.optional(),
    })
    .optional(),
  hallucination: z
    .strictObject({
      enabled: hallucinationFields.enabled.optional(),
      threshold: hallucinationFields.threshold.optional(),
      action: hallucinationFields.action.optional(),
    })
    .optional(),
});

export type PiiType = (typeof PII_TYPES)[number];
export type PiiConfig = z.infer<typeof piiSchema>;
export type ContentFilterConfig = z.infer<typeof contentFilterSchema>;
export type HallucinationConfig = z.infer<typeof hallucinationSchema>;
export type GuardrailsConfig = z.infer<typeof guardrailsSchema>;
export type GuardrailsOverrideConfig = z.infer<typeof guardrailsOverrideSchema>;
