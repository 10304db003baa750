"""Force on Force: the second tactical rule set, on the same battles as Korona's."""
