from flows.cli import main

main(prog_name="cuagym")
