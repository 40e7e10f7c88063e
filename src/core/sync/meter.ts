/** Counts the requests the API client makes, and the 429s among them, for summaries and progress. */
export class RequestMeter {
  requests = 0;
  rateLimited = 0;

  record(event: { status: number | null }): void {
    this.requests++;
    if (event.status === 429) this.rateLimited++;
  }

  mark(): { requests: number; rateLimited: number } {
    return { requests: this.requests, rateLimited: this.rateLimited };
  }

  since(mark: { requests: number; rateLimited: number }): { requests: number; rateLimited: number } {
    return { requests: this.requests - mark.requests, rateLimited: this.rateLimited - mark.rateLimited };
  }
}
