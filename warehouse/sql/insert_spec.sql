INSERT INTO specs (task_id, run_id, position, family, template, apps, platform, domain, difficulty,
                   scenario, persona, taxonomy_leaf, seed, instruction, spec, created_at)
VALUES ($task_id, $run_id, $position, $family, $template, $apps, $platform, $domain, $difficulty,
        $scenario, $persona, $taxonomy_leaf, $seed, $instruction, $spec, $created_at)
ON CONFLICT (task_id) DO NOTHING;
