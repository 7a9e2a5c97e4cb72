import { AgentInterface, type AgentCard, type SecurityScheme } from '@a2a-js/sdk';
import { A2A_LEGACY_PROTOCOL_VERSION } from '@a2a-js/sdk/compat/v0_3';

/**
 * The v0.3 card's `protocolVersion`, spelled as the v0.3 schema has it (a full semantic version). The SDK's
 * "0.3" is the 1.0 interfaces' spelling (`supportedInterfaces[].protocolVersion`, major.minor), kept there.
 */
export const LEGACY_CARD_PROTOCOL_VERSION = '0.3.0';

/**
 * The card a v0.3 peer reads (no A2A-Version header): v0.3 top-level fields (`url`,
 * `preferredTransport`, `protocolVersion`, `securitySchemes` in OpenAPI form) with the 1.0
 * `supportedInterfaces` embedded, the hybrid the SDK's own card handler serves. A 1.0 client that
 * reads it prefers `supportedInterfaces`; a v0.3 client ignores that field.
 */
export function mapToLegacyCard(card: AgentCard): Record<string, unknown> {
  const legacy =
    card.supportedInterfaces.find((entry) => entry.protocolVersion === A2A_LEGACY_PROTOCOL_VERSION) ??
    card.supportedInterfaces[0];
  return {
    name: card.name,
    description: card.description,
    version: card.version,
    protocolVersion: LEGACY_CARD_PROTOCOL_VERSION,
    url: legacy?.url,
    preferredTransport: legacy?.protocolBinding,
    capabilities: {
      streaming: card.capabilities?.streaming ?? false,
      pushNotifications: card.capabilities?.pushNotifications ?? false,
    },
    supportsAuthenticatedExtendedCard: card.capabilities?.extendedAgentCard ?? false,
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills.map((skill) => ({
      id: skill.id,
      name: skill.name,
      description: skill.description,
      tags: skill.tags,
    })),
    securitySchemes: Object.fromEntries(
      Object.entries(card.securitySchemes).map(([name, scheme]) => [name, mapSecurityScheme(scheme)]),
    ),
    security: card.securityRequirements.map((requirement) =>
      Object.fromEntries(Object.entries(requirement.schemes).map(([name, scopes]) => [name, scopes.list])),
    ),
    supportedInterfaces: card.supportedInterfaces.map((entry) => AgentInterface.toJSON(entry)),
  };
}

/** Our cards only declare HTTP bearer authentication; other kinds are published by name only. */
function mapSecurityScheme(scheme: SecurityScheme): Record<string, unknown> {
  if (scheme.scheme?.$case !== 'httpAuthSecurityScheme') return { type: scheme.scheme?.$case ?? 'unknown' };
  const { scheme: name, description, bearerFormat } = scheme.scheme.value;
  return {
    type: 'http',
    scheme: name,
    ...(description ? { description } : {}),
    ...(bearerFormat ? { bearerFormat } : {}),
  };
}
