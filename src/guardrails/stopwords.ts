/**
 * English function words and the phrasing answers wrap facts in ("according to the results"); they carry
 * no claim, so the grounding score ignores them.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are around as at be because been before being below
between both but by can could did do does doing down during each few for from further had has have having he her
here hers herself him himself his how however i if in into is it its itself just let me more most my myself no nor
not now of off on once only or other our ours ourselves out over own same she should so some such than that the
their theirs them themselves then there these they this those through to too under until up very was we were what
when where which while who whom why will with would you your yours yourself yourselves across along among
within without toward towards via per upon onto beyond near
according based currently current answer approximately roughly sure certainly happy help please note know see
result results information data tool tools today right now yes ok okay may might must shall one`.split(/\s+/),
);
