import { redrawLine } from '../core/util/terminal-text';

/** A one-line progress bar for terminals; redrawn in place on stderr. */
export class ProgressBar {
  private last = '';

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly label: string,
    private readonly width = 28,
  ) {}

  update(percent: number, phase: string): void {
    const p = Math.max(0, Math.min(100, Math.round(percent)));
    const filled = Math.round((p / 100) * this.width);
    const line = `${this.label} [${'#'.repeat(filled)}${'.'.repeat(this.width - filled)}] ${String(p).padStart(3)}% ${phase}`;
    if (line === this.last) return;
    this.last = line;
    redrawLine(this.out, line.padEnd(80));
  }

  done(): void {
    if (this.last) this.out.write('\n');
    this.last = '';
  }
}
