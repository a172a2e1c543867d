// Changes another instance made to the shared store, applied to this one's gateway: a note
// (change-feed.ts) names a kind — clients, settings, keys, shapes — and that kind is read back
// from the store as a whole and put in force. Reloads of one kind never overlap: notes arriving
// during one are folded into one more reload after it. Nothing applied here is written back:
// the composition mutes its writers while a reload puts changes in (no echo between instances).
import type { ChangeKind } from "./change-feed.js";
import type { Gateway } from "./gateway.js";
import type { StateStore } from "./state-store.js";
import type { VirtualKey } from "./virtual-keys.js";

const ALL: readonly ChangeKind[] = ["settings", "keys", "clients", "shapes"];

export class RemoteChanges {
  private readonly running = new Map<ChangeKind, Promise<void>>();
  private readonly again = new Set<ChangeKind>();

  constructor(
    private readonly gateway: Gateway,
    private readonly store: StateStore,
    /** Runs `apply` with the store's writers muted: what it changes came from the store. */
    private readonly muted: (apply: () => void) => void,
    private readonly log: (message: string) => void,
  ) {}

  /** Reloads `kind` from the store, now or right after the reload of it under way. */
  request(kind: ChangeKind): void {
    if (this.running.has(kind)) {
      this.again.add(kind);
      return;
    }
    const run = async () => {
      do {
        this.again.delete(kind);
        try {
          await this.reload(kind);
        } catch (e) {
          this.log(`changes to ${kind} made on another instance not applied: ${(e as Error).message}`);
        }
      } while (this.again.has(kind));
    };
    this.running.set(kind, run().finally(() => this.running.delete(kind)));
  }

  /** Reloads everything (the change feed reconnected, or a write of this instance failed). */
  requestAll(): void {
    for (const kind of ALL) this.request(kind);
  }

  /** Resolves once no reload is under way. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running.values());
  }

  private async reload(kind: ChangeKind): Promise<void> {
    // This instance's own writes commit first, so the store shows them too.
    await this.gateway.settled().catch(() => undefined);
    switch (kind) {
      case "clients":
        await this.gateway.syncClients(await this.store.listClients());
        return;
      case "settings": {
        const saved = await this.store.getSettings();
        if (saved) this.muted(() => (this.gateway.settings = { ...this.gateway.settings, ...saved }));
        return;
      }
      case "keys":
        this.applyKeys(await this.store.listKeys());
        return;
      case "shapes":
        this.gateway.shapes.load(await this.store.listShapes());
        return;
    }
  }

  /** Puts the stored keys in force one by one, so each change is announced (tools lists change). */
  private applyKeys(stored: readonly VirtualKey[]): void {
    const keys = this.gateway.keys;
    this.muted(() => {
      const ids = new Set(stored.map((k) => k.id));
      try {
        for (const key of keys.list()) if (!ids.has(key.id)) keys.delete(key.id);
        for (const key of stored) if (JSON.stringify(keys.get(key.id)) !== JSON.stringify(key)) keys.put(key);
      } catch {
        // Two keys swapped names or values: one by one they clash midway; all at once they do not.
        keys.load(stored);
        this.gateway.emit("tools-changed");
      }
    });
  }
}
