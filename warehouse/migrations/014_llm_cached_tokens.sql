-- Prompt caching (issue "The LLM path meets a real model"): of a call's input tokens, how many the
-- provider's prompt cache served (OpenAI's usage.prompt_tokens_details.cached_tokens, Anthropic's
-- cache_read_input_tokens). Rows recorded before this migration report 0.
ALTER TABLE llm_calls ADD COLUMN cached_input_tokens INTEGER DEFAULT 0;
