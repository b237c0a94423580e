ALTER TABLE "manuals" ADD COLUMN "index_fingerprint" text;--> statement-breakpoint
ALTER TABLE "manuals" ADD COLUMN "reembed_stage" text;