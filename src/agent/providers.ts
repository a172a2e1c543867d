// OpenAI-compatible providers for agent mode (SPEC §7): which provider a request's `model` names,
// and one `POST {base_url}/chat/completions` to it. The provider's key comes from config.json,
// never from the caller (whose Authorization header carries its virtual key).
import type { ProviderConfig } from "../gateway/config-file.js";

/** A chat message in OpenAI's shape (only the fields the agent loop reads are typed). */
export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
  [field: string]: unknown;
}

export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ChatChoice {
  index: number;
  message: ChatMessage;
  finish_reason: string | null;
  [field: string]: unknown;
}

export interface ChatCompletion {
  id?: string;
  object?: string;
  model?: string;
  choices: ChatChoice[];
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number; [field: string]: unknown };
  [field: string]: unknown;
}

/** A provider failure: unreachable, an error status, or an answer that is not a chat completion (502). */
export class ProviderError extends Error {
  readonly statusCode = 502;
  override name = "ProviderError";
}

/** The provider and the model name it knows, from `<provider>/<model>` or a bare model (the first provider). */
export function resolveModel(providers: readonly ProviderConfig[], model: string): { provider: ProviderConfig; model: string } {
  if (providers.length === 0) {
    throw Object.assign(new Error("agent mode needs a provider: add \"providers\": [{\"name\", \"base_url\", \"api_key\"}] to config.json"), { statusCode: 400 });
  }
  const slash = model.indexOf("/");
  if (slash < 0) return { provider: providers[0]!, model };
  const name = model.slice(0, slash);
  const provider = providers.find((p) => p.name === name);
  if (!provider) {
    throw Object.assign(new Error(`model names an unknown provider '${name}' (configured: ${providers.map((p) => p.name).join(", ")})`), { statusCode: 400 });
  }
  if (slash === model.length - 1) throw Object.assign(new Error(`model '${model}' names no model after the provider`), { statusCode: 400 });
  return { provider, model: model.slice(slash + 1) };
}

function shorten(text: string, max = 500): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** One chat completion request; throws ProviderError for anything but a usable answer. */
export async function chatCompletion(provider: ProviderConfig, body: Record<string, unknown>, signal?: AbortSignal): Promise<ChatCompletion> {
  const timeout = AbortSignal.timeout(provider.timeout_seconds * 1000);
  const headers: Record<string, string> = { ...provider.headers, "content-type": "application/json", accept: "application/json" };
  if (provider.api_key !== undefined) headers.authorization = `Bearer ${provider.api_key}`;
  let response: Response;
  try {
    response = await fetch(`${provider.base_url}/chat/completions`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (e) {
    const why = timeout.aborted ? `no answer within ${provider.timeout_seconds} s` : ((e as Error).cause as Error | undefined)?.message ?? (e as Error).message;
    throw new ProviderError(`provider '${provider.name}' could not be reached: ${why}`);
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const message = (parsed as { error?: { message?: unknown } } | undefined)?.error?.message;
    throw new ProviderError(`provider '${provider.name}' answered ${response.status}: ${shorten(typeof message === "string" ? message : text)}`);
  }
  const completion = parsed as ChatCompletion | undefined;
  const message = completion?.choices?.[0]?.message;
  if (!completion || !Array.isArray(completion.choices) || typeof message !== "object" || message === null) {
    throw new ProviderError(`provider '${provider.name}' answered something that is not a chat completion: ${shorten(text)}`);
  }
  return completion;
}
