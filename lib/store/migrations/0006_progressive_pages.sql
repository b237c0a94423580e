ALTER TABLE `manuals` ADD `searchable_pages` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `manuals` ADD `figure_labels` text;--> statement-breakpoint
UPDATE "manuals" SET "searchable_pages" = COALESCE("page_count", 0), "figure_labels" = 'done' WHERE "status" = 'ready';
