/**
 * Whether a task's dataset_path names a Hub dataset. Apart from the Hub download code (dataset.ts), which
 * a run loads only for a task whose data comes from the Hub.
 */
/** A Hub repo id: `name` or `org/name`, made of the characters the Hub allows. */
export function looksLikeHubId(value: string): boolean {
  return (
    /^[A-Za-z0-9][\w.-]*(\/[A-Za-z0-9][\w.-]*)?$/.test(value) && !/\.(jsonl?|csv|parquet|tsv)$/i.test(value)
  );
}
