/**
 * A fake Anthropic Messages + OpenAI Chat Completions server on 127.0.0.1 for tests and e2e.
 * No test-runner imports here: vitest and Playwright both load this module.
 */
export { startFakeProvider, type FakeProvider, type FakeProviderOptions } from './server'
export type {
  FakeHttpError,
  FakeMidStreamError,
  FakeProtocol,
  FakeToolCall,
  FakeTurn,
  FakeUsage,
  FixtureTurn,
  RecordedRequest,
  ScriptedTurn,
  TurnFunction,
  TurnResult
} from './script'
export { FAKE_SIGNATURE, splitWords } from './script'
export { apiKeyOf, lastUserText, systemPromptOf, toolNamesOf, toolResultsIn, type SentToolResult } from './inspect'
export { createFixtureLibrary, defaultFixturesDir, type FixtureEntry } from './fixtures'
export { fakeEmbedding, type FakeEmbeddingsControl } from './embeddings'
export { DEFAULT_FAKE_MODELS, type FakeModel } from './models'
